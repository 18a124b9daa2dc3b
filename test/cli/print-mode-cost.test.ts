import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { runPrintMode } from "../../src/cli/print-mode.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { firstPrompt, isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

async function printRun(model: string): Promise<{ code: number; stderr: string[] }> {
  const usage = { input: 100_000, output: 10_000, cacheRead: 0, cacheWrite: 0 };
  const provider = createScriptedProvider((r) => {
    if (isChild(r)) return { text: `report for ${firstPrompt(r)}`, usage };
    return r.messages.length === 1 ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "a" } }], usage } : { text: "merged", usage };
  });
  const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model, interactive: false, approval: {} });
  const stderr: string[] = [];
  const code = await runPrintMode(session, "go", { json: false, signal: new AbortController().signal, io: { stdout: () => undefined, stderr: (t) => stderr.push(t) } });
  return { code, stderr };
}

describe("print mode: tokens and cost on the last stderr line", () => {
  it("sums the main agent's and the child's turns and prices them", async () => {
    const { code, stderr } = await printRun("claude-haiku-4-5");
    expect(code).toBe(0);
    // 3 turns (2 main + 1 child) × (100k × $1/M + 10k × $5/M) = 3 × $0.15
    expect(stderr.at(-1)).toBe("ink: 300,000 tokens in, 30,000 out · $0.45\n");
  });

  it("shows no cost for a model without a price", async () => {
    const { stderr } = await printRun("scripted-model");
    expect(stderr.at(-1)).toBe("ink: 300,000 tokens in, 30,000 out\n");
  });
});

describe("print-mode totals count what the children's summaries count", () => {
  it("the spend events of the run, each priced by its own model: a child's turn cut off by its timeout adds its estimated output", async () => {
    const { RunTotals } = await import("../../src/cli/print-mode.js");
    const totals = new RunTotals();
    totals.see({ type: "spend", agent: "main", model: "claude-haiku-4-5", usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0 } });
    totals.see({ type: "spend", agent: "c1", run: "t1", model: "claude-haiku-4-5", usage: { input: 0, output: 11, cacheRead: 0, cacheWrite: 0 } });
    // 100 × $1/M + 31 × $5/M
    expect(totals.line()).toBe("ink: 100 tokens in, 31 out · $0.0003\n");
  });

  it("a resumed session's earlier spend is not this run's", async () => {
    const cwd = temp("ink-cwd-");
    const inkHome = temp("ink-home-");
    const provider = createScriptedProvider(() => ({ text: "ok", usage: { input: 7, output: 3, cacheRead: 0, cacheWrite: 0 } }));
    const first = new AgentSession({ cwd, inkHome, provider, model: "scripted-model", interactive: false, approval: {} });
    await runPrintMode(first, "one", { json: false, signal: new AbortController().signal, io: { stdout: () => undefined, stderr: () => undefined } });
    first.close();
    const resumed = new AgentSession({ cwd, inkHome, provider, model: "scripted-model", interactive: false, approval: {}, resume: first.sessionId });
    expect(resumed.ledger.tokens()).toBe(10);
    const stderr: string[] = [];
    await runPrintMode(resumed, "two", { json: false, signal: new AbortController().signal, io: { stdout: () => undefined, stderr: (t) => stderr.push(t) } });
    resumed.close();
    expect(stderr.at(-1)).toBe("ink: 7 tokens in, 3 out\n");
  });
});

it("a child's finish line counts its cache tokens, as its summary line in the TUI does", async () => {
  const provider = createScriptedProvider((r) => {
    if (isChild(r)) return { text: "report", usage: { input: 100, output: 10, cacheRead: 1000, cacheWrite: 0 } };
    return r.messages.length === 1 ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "a" } }] } : { text: "merged" };
  });
  const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "scripted-model", interactive: false, approval: {} });
  const stderr: string[] = [];
  await runPrintMode(session, "go", { json: false, signal: new AbortController().signal, io: { stdout: () => undefined, stderr: (t) => stderr.push(t) } });
  expect(stderr.join("")).toMatch(/■ finished .*· 1110 tokens/);
});
