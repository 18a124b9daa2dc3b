/** The main agent changing a file a running child changed (issue #25 item 4): it is not refused, its result warns and names the child. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { userText, type ToolResultMessage, type UserMessage } from "../../src/protocol/messages.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import { createScriptedProvider, type ScriptedTurn } from "../../src/providers/scripted.js";
import { isChild } from "../helpers/subagent-harness.js";
import { waitUntil } from "../../components/testing/wait-for-frame.js";

const dirs: string[] = [];
const sessions: AgentSession[] = [];
afterEach(() => {
  sessions.splice(0).forEach((s) => s.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

it("the main agent's write of a file a running background child wrote runs, and its result names that child", async () => {
  const childWrote = gate();
  const childMayEnd = gate();
  let mainResult = "";
  const main = (r: ModelRequest): ScriptedTurn => {
    const last = r.messages.at(-1)!;
    if (last.role === "user" && userText(last as UserMessage) === "go") return { toolCalls: [{ id: "bg1", name: "task", arguments: { prompt: "write a.ts", description: "fix login", background: true } }] };
    if (last.role === "toolResult" && (last as ToolResultMessage).results[0]!.toolName === "task") return { toolCalls: [{ id: "w1", name: "write", arguments: { path: "a.ts", content: "main\n" } }], waitFor: childWrote.promise };
    if (last.role === "toolResult") mainResult = (last as ToolResultMessage).results[0]!.content;
    return { text: "ok" };
  };
  const child = (r: ModelRequest): ScriptedTurn => {
    if (r.messages.length === 1) return { toolCalls: [{ name: "write", arguments: { path: "a.ts", content: "child\n" } }] };
    childWrote.open();
    return { text: "child done", waitFor: childMayEnd.promise };
  };
  const provider = createScriptedProvider((r) => (isChild(r) ? child(r) : main(r)));
  const cwd = temp("ink-cwd-");
  const session = new AgentSession({ cwd, inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: { mode: "yolo" } as never });
  sessions.push(session);
  await session.prompt("go");
  const childId = session.backgroundRunning[0]!;
  expect(readFileSync(join(cwd, "a.ts"), "utf8")).toBe("main\n");
  expect(mainResult).toContain(`[write] warning: a.ts was also changed by the running child general · fix login [${childId}]`);
  childMayEnd.open();
  await waitUntil(() => session.hasUndeliveredReports, { tries: 2000, what: "the child's end" });
});
