import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { runPrintMode } from "../../src/cli/print-mode.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { userText, type UserMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

function run(json: boolean) {
  let open!: () => void;
  const childGate = new Promise<void>((r) => (open = r));
  const provider = createScriptedProvider((r) => {
    if (isChild(r)) return { text: "BG-REPORT", waitFor: childGate };
    const last = r.messages.at(-1)!;
    if (last.role === "toolResult") {
      setTimeout(open, 0); // the child ends after the main agent's first answer
      return { text: "started; waiting for it" };
    }
    if (last.role === "user" && userText(last as UserMessage).includes("<background-report")) return { text: "FINAL: the child found BG-REPORT" };
    return { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "dig", background: true } }] };
  });
  const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: false, approval: {} });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const done = runPrintMode(session, "go", { json, signal: new AbortController().signal, io: { stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t) } }).finally(() => session.close());
  return { done, stdout, stderr, provider };
}

describe("print mode with background children", () => {
  it("awaits them before the final answer; their report starts a main turn whose answer is printed", async () => {
    const { done, stdout, stderr } = await (async () => {
      const r = run(false);
      await r.done;
      return r;
    })();
    expect(stdout.join("")).toBe("FINAL: the child found BG-REPORT\n");
    expect(stderr.join("")).toMatch(/⇢ general \[\S+\] works in the background/);
    expect(stderr.join("")).toMatch(/↩ report of general · dig \[\S+\] delivered to the main agent/);
  });

  it("--output json carries background_start, subagent events and the delivery with the child id", async () => {
    const r = run(true);
    expect(await r.done).toBe(0);
    const events = r.stdout.join("").trim().split("\n").map((l) => JSON.parse(l) as AgentEvent);
    const start = events.find((e) => e.type === "background_start") as Extract<AgentEvent, { type: "background_start" }>;
    expect(start).toMatchObject({ by: "call", parentToolCallId: "t1" });
    expect(events.some((e) => e.type === "subagent_end" && e.childId === start.childId)).toBe(true);
    expect(events.find((e) => e.type === "background_delivery")).toEqual({ type: "background_delivery", childIds: [start.childId], startsTurn: true });
  });
});
