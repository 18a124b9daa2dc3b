/** Print mode shows an edit overlap between two running children on stderr, for both children (issue #25 item 4). */
import { join } from "node:path";
import { expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { runPrintMode } from "../../src/cli/print-mode.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { firstPrompt, isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

it("both children's lines: the refused one and the one holding the file", async () => {
  const aWrote = gate();
  const bRefused = gate();
  const provider = createScriptedProvider((r) => {
    if (!isChild(r)) return r.messages.length === 1 ? { toolCalls: [{ id: "t0", name: "task", arguments: { prompt: "CHILD-A", description: "fix login" } }, { id: "t1", name: "task", arguments: { prompt: "CHILD-B", description: "tidy login" } }] } : { text: "merged" };
    const first = r.messages.length === 1;
    if (firstPrompt(r) === "CHILD-A") {
      if (first) return { toolCalls: [{ name: "write", arguments: { path: "a.ts", content: "a\n" } }] };
      aWrote.open();
      return { text: "A done", waitFor: bRefused.promise };
    }
    if (first) return { toolCalls: [{ name: "write", arguments: { path: "a.ts", content: "b\n" } }], waitFor: aWrote.promise };
    bRefused.open();
    return { text: "B done" };
  });
  const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: false, approval: { mode: "yolo" } as never });
  const stderr: string[] = [];
  const code = await runPrintMode(session, "go", { json: false, signal: new AbortController().signal, io: { stdout: () => {}, stderr: (t) => stderr.push(t) } });
  session.close();
  expect(code).toBe(0);
  const err = stderr.join("");
  expect(err).toMatch(/general · tidy login \[\S+\] ⚠ overlap: a\.ts is being changed by general · fix login \[\S+\]; not changed here\n/);
  expect(err).toMatch(/general · fix login \[\S+\] ⚠ overlap: general · tidy login \[\S+\] also tried to change a\.ts, which this child changed\n/);
});
