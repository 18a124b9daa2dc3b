import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentSession } from "../../src/agent-session.js";
import { runPrintMode } from "../../src/cli/print-mode.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { firstPrompt, isChild } from "../helpers/subagent-harness.js";

const dirs: string[] = [];
const temp = (p: string) => {
  const d = mkdtempSync(join(tmpdir(), p));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

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
