/**
 * Drives `ink --acp` (the built CLI as a real child process) with the ACP SDK's own client side
 * (`client().connect(ndJsonStream(...))`, the 2.x successor of ClientSideConnection), and the small
 * helpers the ACP end-to-end tests share: a Messages-API script routed by prompt markers, update
 * filters, polling and process checks.
 */
import { spawn, execFileSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream, type ClientConnection, type RequestPermissionRequest, type RequestPermissionResponse, type SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import { CLI } from "./cli.js";
import type { FakeAnthropic, FakeResponse } from "./fake-anthropic-server.js";
import { alive } from "./processes.js";

export interface AcpAgent {
  proc: ChildProcessWithoutNullStreams;
  conn: ClientConnection;
  updates: Array<{ sessionId: string; update: SessionUpdate }>;
  permissions: RequestPermissionRequest[];
  stderr: () => string;
  exited: Promise<number | null>;
  /** Resolves when an update matching `pred` has arrived. */
  waitUpdate: (pred: (u: { sessionId: string; update: SessionUpdate }) => boolean, what: string) => Promise<{ sessionId: string; update: SessionUpdate }>;
}

/** Where the agent runs: the loopback server, the project (its cwd) and INK_HOME; started agents are added to `agents`. */
export interface AcpEnv {
  server: FakeAnthropic;
  repo: string;
  home: string;
  agents: AcpAgent[];
}

/** Starts `ink --acp` in `env.repo` and connects the SDK client; permission questions are answered by `answer` (default: allow). */
export function startAcpAgent(env: AcpEnv, answer: (req: RequestPermissionRequest) => RequestPermissionResponse | Promise<RequestPermissionResponse> = () => ({ outcome: { outcome: "selected", optionId: "allow" } })): AcpAgent {
  const proc = spawn(process.execPath, [CLI, "--acp"], { cwd: env.repo, env: { ...process.env, INK_HOME: env.home, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: env.server.url }, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  const updates: AcpAgent["updates"] = [];
  const waiters: Array<() => void> = [];
  const permissions: RequestPermissionRequest[] = [];
  const app = client({ name: "test-editor" })
    .onNotification("session/update", ({ params }) => {
      updates.push({ sessionId: params.sessionId, update: params.update });
      for (const w of [...waiters]) w();
    })
    .onRequest("session/request_permission", ({ params }) => {
      permissions.push(params);
      return answer(params);
    });
  const conn = app.connect(ndJsonStream(Writable.toWeb(proc.stdin) as WritableStream<Uint8Array>, Readable.toWeb(proc.stdout) as ReadableStream<Uint8Array>));
  const waitUpdate: AcpAgent["waitUpdate"] = (pred, what) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const hit = updates.find(pred);
        if (!hit) return false;
        waiters.splice(waiters.indexOf(check as () => void), 1);
        resolve(hit);
        return true;
      };
      if (check()) return;
      waiters.push(check as () => void);
      void exited.then(() => reject(new Error(`ink exited while waiting for ${what}; stderr:\n${stderr}`)));
    });
  const agent = { proc, conn, updates, permissions, stderr: () => stderr, exited, waitUpdate };
  env.agents.push(agent);
  return agent;
}

/** The first user message's text of a recorded Messages-API request body. */
export function firstUser(body: { messages: Array<{ role: string; content: unknown }> }): string {
  const m = body.messages[0]!;
  return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
}

/** The text of a content-chunk update ("" for others). */
export const updateText = (u: SessionUpdate) => ("content" in u && u.content && !Array.isArray(u.content) && u.content.type === "text" ? u.content.text : "");

/** Every chunk of `kind` the agent sent on `sessionId`, joined. */
export const chunks = (a: AcpAgent, sessionId: string, kind: SessionUpdate["sessionUpdate"] = "agent_message_chunk") =>
  a.updates
    .filter((x) => x.sessionId === sessionId && x.update.sessionUpdate === kind)
    .map((x) => updateText(x.update))
    .join("");

/** Index of the last user message that is the person's (or the parent's) text rather than tool results. */
function lastPrompt(body: { messages: Array<{ role: string; content: unknown }> }): number {
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const m = body.messages[i]!;
    if (m.role !== "user") continue;
    if (typeof m.content === "string" || !(m.content as Array<{ type: string }>).some((b) => b.type === "tool_result")) return i;
  }
  return 0;
}

/** Routes the scripted conversation: a turn is chosen by the latest prompt's marker and the model turns since it. */
export function scriptByPrompt(server: FakeAnthropic, table: Record<string, FakeResponse[]>): void {
  server.setRouter((body) => {
    const at = lastPrompt(body);
    const prompt = JSON.stringify(body.messages[at].content);
    const key = Object.keys(table).find((k) => prompt.includes(k));
    if (!key) return undefined;
    const turn = body.messages.slice(at).filter((m: { role: string }) => m.role === "assistant").length;
    return table[key]![Math.min(turn, table[key]!.length - 1)];
  });
}

/** Waits (bounded) until `pid` is gone; true when it is. */
export async function gone(pid: number): Promise<boolean> {
  await waitFor(() => !alive(pid), `process ${pid} to end`).catch(() => undefined);
  return !alive(pid);
}

/** The pid of a process whose command line is `cmd` (undefined when none). */
export function pidOf(cmd: string): number | undefined {
  try {
    const out = execFileSync("pgrep", ["-f", `^${cmd.replace(/\./g, "\\.")}$`], { encoding: "utf8" }).trim();
    return out ? Number(out.split("\n")[0]) : undefined;
  } catch {
    return undefined;
  }
}

/** Polls `get` until it returns a truthy value (the state the test waits for). */
export async function waitFor<T>(get: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = get();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
