/** Print mode (headless, nobody to ask) with budgets: a child stops with a clear result; the session's budget stops the run. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { runPrintMode } from "../../src/cli/print-mode.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import { createScriptedProvider, type ScriptedTurn } from "../../src/providers/scripted.js";
import { isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const usage = { input: 500, output: 100 };
const script = (args: Record<string, unknown>) => (r: ModelRequest): ScriptedTurn => {
  const turn = r.messages.filter((m) => m.role === "assistant").length + 1;
  if (isChild(r)) return turn >= 4 ? { text: "CHILD REPORT", usage } : { toolCalls: [{ name: "ls", arguments: { path: "." } }], usage };
  return r.messages.at(-1)!.role === "toolResult" ? { text: "MAIN DONE", usage } : { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "look", ...args } }], usage };
};

async function printRun(args: Record<string, unknown>, settings: object = {}) {
  const inkHome = temp("ink-home-");
  writeFileSync(join(inkHome, "settings.json"), JSON.stringify(settings));
  const provider = createScriptedProvider(script(args));
  const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome, provider, model: provider.defaultModel, interactive: false, approval: { yolo: true } });
  const stderr: string[] = [];
  const stdout: string[] = [];
  const code = await runPrintMode(session, "go", { json: false, signal: new AbortController().signal, io: { stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t) } });
  session.close();
  return { code, stderr: stderr.join(""), stdout: stdout.join(""), provider };
}

describe("print mode: budgets", () => {
  it("a child at its budget stops with `[task] stopped: budget of … reached after N turns`; the main agent goes on", async () => {
    const { code, stderr, stdout, provider } = await printRun({ maxTokens: 1000 });
    expect(code).toBe(0);
    expect(stdout).toContain("MAIN DONE");
    expect(stderr).toMatch(/⏸ general · look \[[^\]]+\] budget of 1k tokens reached \(spent 1.2k tokens\): stopping it, resumable/);
    expect(stderr).toMatch(/■ aborted general · look \[[^\]]+\]: aborted \(budget of 1k tokens reached\) · 2 turns/);
    const result = (provider.requests.filter((r) => !isChild(r)).at(-1)!.messages.at(-1) as ToolResultMessage).results[0]!;
    expect(result.content).toContain("[task] stopped: budget of 1k tokens reached after 2 turns.");
  });

  it("the session's budget stops the run with a clear line and exit code 1", async () => {
    const { code, stderr } = await printRun({}, { maxTokens: 1500 });
    expect(code).toBe(1);
    // 1.2k spent: the next request (the last reply's 600 tokens plus the tool result since) would cross 1.5k, so it is not sent.
    expect(stderr).toMatch(/the session's budget of 1\.5k tokens would be crossed by the next request \(about 7\d\d tokens\) \(spent 1\.2k tokens\): stopping it, resumable/);
    expect(stderr).toMatch(/ink: stopped: the session's budget of 1\.5k tokens would be crossed by the next request \(about \d+ tokens; 1\.2k tokens spent\): the main agent stopped before its next request; raise maxTokens \/ maxCostUsd in settings and continue with .+ --resume /);
  });
});
