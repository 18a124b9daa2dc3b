/** The seed's contract rows still short after round two (issue #36): each test names its row. */
import { describe, expect, it, afterEach } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { buildSystemPrompt } from "../../src/core/system-prompt.js";
import { parseCliArgs } from "../../src/cli/args.js";
import { parseThinking, THINKING_BUDGETS, MIN_THINKING_BUDGET } from "../../src/protocol/field-parsers.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import type { AnyTool } from "../../src/protocol/tool.js";
import { buildRequestBody } from "../../src/providers/anthropic-convert.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { parseProfile } from "../../src/subagents/profiles/profile-parse.js";
import { resolveDispatchModel } from "../../src/subagents/runtime/resume-check.js";
import { startedInBackgroundResult } from "../../src/subagents/runtime/child-job.js";
import { describeTask, taskSchema } from "../../src/subagents/tools/task-tool.js";
import { echoTool } from "../helpers/fake-tools.js";
import { harness, type Harness, idOf, isChild, lastResult, parentOnce, profile } from "../helpers/subagent-harness.js";
import { tempDir } from "../helpers/temp-dirs.js";

let h: Harness | undefined;
afterEach(() => {
  h?.cleanup();
  h = undefined;
});

describe("F-4: no agent roster when no agents are defined", () => {
  it("neither the system prompt nor the task description has an agents block", () => {
    const task = { ...echoTool, name: "task", description: describeTask([]) } as AnyTool;
    const system = buildSystemPrompt({ cwd: "/w", tools: [echoTool, task] });
    expect(system).toContain("# Delegation");
    expect(system).not.toContain("# Available agents");
    expect(describeTask([])).not.toMatch(/Available agents/);
    expect(describeTask([]).endsWith("\n")).toBe(false);
    expect(describeTask([profile("scout")])).toContain("- scout: scout profile");
    expect(buildSystemPrompt({ cwd: "/w", tools: [echoTool, task], agentList: "- scout: finds" })).toContain("# Available agents\n- scout: finds");
  });
});
