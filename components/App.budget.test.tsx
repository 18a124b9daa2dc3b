/** Budgets in the TUI (issue #25 item 2): the question when a child's budget is reached, its answers, the pane's status, the status bar's spend. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../src/protocol/messages.js";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import { isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const usage = { input: 500, output: 100 };
/** The child echoes… (ls) three times, then reports; every turn spends 600 tokens. The main agent delegates with `args`. */
const script = (args: Record<string, unknown>) => (r: ModelRequest): ScriptedTurn => {
  const turn = r.messages.filter((m) => m.role === "assistant").length + 1;
  if (isChild(r)) return turn >= 4 ? { text: "CHILD-REPORT", usage } : { toolCalls: [{ name: "ls", arguments: { path: "." } }], usage };
  return r.messages.at(-1)!.role === "toolResult" ? { text: "MAIN-ANSWER", usage } : { toolCalls: [{ name: "task", arguments: { prompt: "look around", description: "survey the repo", ...args } }], usage };
};
const taskResult = () => (h!.provider.requests.filter((r) => !isChild(r)).at(-1)!.messages.at(-1) as ToolResultMessage).results[0]!;

describe("App: budgets", () => {
  it("a child at its budget pauses and asks; 2 (2×) lets it go on to its report", async () => {
    h = renderApp(script({ maxTokens: 1000 }));
    await typeAndSubmit(h.app, "survey");
    // The pane says why it waits (its events arrive with the stream's next flush).
    const asked = await waitForFrame(h.app.lastFrame, (f) => f.includes("Budget of") && f.includes("paused: budget of 1k tokens reached"), { what: "the budget question and the paused pane" });
    expect(asked).toContain('Budget of 1k tokens reached: child "survey the repo" (spent 1.2k tokens, 2 turns)');
    expect(asked).toContain("[1] +50% (+500 tokens)");
    expect(asked).toContain("[2] 2× (+1k tokens)");
    h.app.stdin.write("2");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("MAIN-ANSWER"), { what: "the main agent's answer" });
    expect(h.app.lastFrame()).not.toContain("Budget of");
    const result = taskResult();
    expect(result.isError).toBe(false);
    expect(result.content).toContain("CHILD-REPORT");
  });

  it("s stops the child with the budget's result; it stays resumable", async () => {
    h = renderApp(script({ maxTokens: 1000 }));
    await typeAndSubmit(h.app, "survey");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Budget of"), { what: "the budget question" });
    h.app.stdin.write("s");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("MAIN-ANSWER"), { what: "the main agent's answer" });
    const result = taskResult();
    expect(result.content).toContain("[task] stopped: budget of 1k tokens reached after 2 turns.");
    expect(result.content).toMatch(/continue it with task\(\{resume: "/);
  });

  it("t + a typed amount + Enter extends by that amount; a bad amount is named", async () => {
    h = renderApp(script({ maxTokens: 1000 }));
    await typeAndSubmit(h.app, "survey");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Budget of"), { what: "the budget question" });
    h.app.stdin.write("t");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Add:"), { what: "the amount field" });
    h.app.stdin.write("-3");
    h.app.stdin.write("\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("is not a number of tokens"), { what: "the amount's error" });
    h.app.stdin.write("\u007f\u007f");
    h.app.stdin.write("5k");
    h.app.stdin.write("\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("MAIN-ANSWER"), { what: "the main agent's answer" });
    expect(taskResult().content).toContain("CHILD-REPORT");
  });

  it("keys typed ahead go to the prompt, not the question: a 1 or s in a draft neither extends nor stops; a key after a pause answers", async () => {
    const clock = { t: 1_000_000, armMs: 400, quietMs: 1000, now: () => clock.t };
    h = renderApp(script({ maxTokens: 1000 }), { approvalTiming: clock });
    await typeAndSubmit(h.app, "survey");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Budget of"), { what: "the budget question" });
    let sofar = "";
    for (const ch of "s 1 2 t") {
      clock.t += 150;
      h.app.stdin.write(ch);
      sofar += ch;
      await waitForFrame(h.app.lastFrame, (f) => f.includes(`› ${sofar.trimEnd()}`), { what: `the draft "${sofar}"` });
    }
    const typed = h.app.lastFrame()!;
    expect(typed).toContain("Budget of");
    expect(typed).not.toContain("Add:");
    clock.t += 1500;
    h.app.stdin.write("2");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("MAIN-ANSWER"), { what: "the main agent's answer" });
    expect(taskResult().content).toContain("CHILD-REPORT");
  });

  it("the status bar shows the session tree's spend against its budget", async () => {
    h = renderApp(script({}), { before: ({ inkHome }) => writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ maxTokens: "50k" })) });
    expect(h.app.lastFrame()).toContain("0 / 50k tokens");
    await typeAndSubmit(h.app, "survey");
    // main 600 + child 4 × 600 + main 600 = 3.6k
    await waitForFrame(h.app.lastFrame, (f) => f.includes("MAIN-ANSWER") && f.includes("3.6k / 50k tokens"), { what: "the spend against the budget" });
  });

  it("the session's budget question shows the tree's live spend, the status bar's figure, as other agents finish their requests", async () => {
    let bArrived!: () => void;
    const bStarted = new Promise<void>((r) => (bArrived = r));
    let releaseB!: () => void;
    const bMayAnswer = new Promise<void>((r) => (releaseB = r));
    const tree = (r: ModelRequest): ScriptedTurn => {
      const turn = r.messages.filter((m) => m.role === "assistant").length + 1;
      if (isChild(r)) {
        const first = r.messages[0]!;
        const isB = JSON.stringify(first).includes("child B");
        if (isB) {
          bArrived();
          return { text: "B-REPORT", usage, waitFor: bMayAnswer };
        }
        // A's first request answers once B's is in flight (both passed the budget's gate at 600 tokens).
        return turn === 1 ? { toolCalls: [{ name: "ls", arguments: { path: "." } }], usage, waitFor: bStarted } : { text: "A-REPORT", usage };
      }
      return r.messages.at(-1)!.role === "toolResult"
        ? { text: "MAIN-ANSWER", usage }
        : {
            toolCalls: [
              { name: "task", arguments: { prompt: "child A: look", description: "child A" } },
              { name: "task", arguments: { prompt: "child B: look", description: "child B" } },
            ],
            usage,
          };
    };
    h = renderApp(tree, { before: ({ inkHome }) => writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ maxTokens: 1800 })) });
    await typeAndSubmit(h.app, "survey");
    // main 600 + A 600 = 1.2k spent, B's 600 in flight: A's next (600 plus its ls result) would cross 1.8k, so it asks first.
    const asked = await waitForFrame(h.app.lastFrame, (f) => /The session's budget of 1\.8k tokens would be crossed by the next request \(about \d+ tokens\)/.test(f), { what: "the session's budget question" });
    expect(asked).toContain("(spent 1.2k tokens, 1 turn)");
    expect(asked).toContain("1.2k / 1.8k tokens");
    // B's request in flight finishes: the status bar and the question both say 1.8k.
    releaseB();
    const later = await waitForFrame(h.app.lastFrame, (f) => f.includes("1.8k / 1.8k tokens"), { what: "the status bar's new spend" });
    expect(later).toContain("(spent 1.8k tokens, 1 turn)");
    h.app.stdin.write("s");
    await waitForFrame(h.app.lastFrame, (f) => !f.includes("The session's budget of"), { what: "the question closed" });
  });
});
