/** Builds a parent agent with a real task tool over a scripted provider, a temp INK_HOME and a session store. */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentEvent } from "../../src/protocol/events.js";
import { runAgentLoop, type LoopResult } from "../../src/core/loop.js";
import type { AgentMessage, ToolResultMessage, UserMessage } from "../../src/protocol/messages.js";
import type { OnToolCall } from "../../src/core/tool-runner.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import { createScriptedProvider, type ScriptedProvider, type ScriptedTurn } from "../../src/providers/scripted.js";
import { SessionStore } from "../../src/session/store.js";
import type { AgentProfile } from "../../src/subagents/profiles/profile-parse.js";
import { createTaskTool } from "../../src/subagents/tools/task-tool.js";
import type { RunningChildren } from "../../src/subagents/runtime/running-children.js";
import type { EditClaims } from "../../src/subagents/runtime/edit-claims.js";
import type { AnyTool } from "../../src/protocol/tool.js";
import { echoTool } from "./fake-tools.js";
import type { AskBudget, TreeGate } from "../../src/subagents/runtime/budget.js";

export const isChild = (r: ModelRequest) => r.system.includes("# Subagent mode");
export const firstPrompt = (r: ModelRequest) => {
  const m = r.messages[0] as UserMessage;
  return typeof m.content === "string" ? m.content : m.content.map((b) => b.text).join("");
};

/** A profile value for tests. */
export function profile(name: string, extra: Partial<AgentProfile> = {}): AgentProfile {
  return { name, description: `${name} profile`, body: `You are ${name}.`, path: `/profiles/${name}.md`, source: "project", hash: name, ...extra };
}

export interface Harness {
  provider: ScriptedProvider;
  store: SessionStore;
  inkHome: string;
  events: AgentEvent[];
  history: AgentMessage[];
  tools: AnyTool[];
  run(prompt: string, opts?: { signal?: AbortSignal; onToolCall?: OnToolCall; cwd?: string; abortGraceMs?: number }): Promise<LoopResult>;
  cleanup(): void;
}

/** A harness whose scripted model answers every request with `script(request)`. */
export function harness(
  script: (request: ModelRequest, index: number) => ScriptedTurn | Promise<ScriptedTurn>,
  options: { profiles?: AgentProfile[]; extraTools?: AnyTool[]; maxConcurrent?: number; defaultTimeoutMs?: number; cwd?: string; onToolCall?: OnToolCall; leaseIntervalMs?: number; running?: RunningChildren; pauseLimitMs?: number; editClaims?: EditClaims; models?: readonly string[]; parentModel?: string; providerModel?: string; treeBudget?: TreeGate; askBudget?: AskBudget; system?: () => string; store?: false } = {},
): Harness {
  const inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
  const provider = createScriptedProvider(script, { ...(options.models ? { models: options.models } : {}), ...(options.providerModel ? { model: options.providerModel } : {}) });
  const store = new SessionStore(inkHome);
  const events: AgentEvent[] = [];
  const history: AgentMessage[] = [];
  const tools: AnyTool[] = [];
  const task = createTaskTool({
    provider,
    model: options.parentModel ?? provider.defaultModel,
    getSystem: () => options.system?.() ?? "PARENT SYSTEM",
    getTools: () => tools,
    profiles: options.profiles ?? [],
    store: options.store === false ? undefined : store,
    parentSessionId: "parent-1",
    inkHome,
    maxConcurrent: options.maxConcurrent,
    defaultTimeoutMs: options.defaultTimeoutMs,
    onToolCall: options.onToolCall,
    leaseIntervalMs: options.leaseIntervalMs,
    running: options.running,
    pauseLimitMs: options.pauseLimitMs,
    editClaims: options.editClaims,
    treeBudget: options.treeBudget,
    askBudget: () => options.askBudget,
  });
  tools.push(echoTool, ...(options.extraTools ?? []), task);
  return {
    provider,
    store,
    inkHome,
    events,
    history,
    tools,
    run: (prompt, opts = {}) =>
      runAgentLoop({
        provider,
        model: provider.defaultModel,
        system: options.system?.() ?? "PARENT SYSTEM",
        tools,
        history,
        userMessage: prompt,
        cwd: opts.cwd ?? options.cwd ?? process.cwd(),
        signal: opts.signal,
        abortGraceMs: opts.abortGraceMs,
        onToolCall: opts.onToolCall ?? options.onToolCall,
        onEvent: (e) => events.push(e),
      }),
    cleanup: () => rmSync(inkHome, { recursive: true, force: true }),
  };
}

/** A parent that delegates `getArgs()` on each user prompt (one `task` call), then answers "ok". */
export function parentOnce(getArgs: () => Record<string, unknown>) {
  return (r: ModelRequest): ScriptedTurn => (r.messages.at(-1)!.role === "user" ? { toolCalls: [{ id: `t${r.messages.length}`, name: "task", arguments: getArgs() }] } : { text: "ok" });
}

/** The last tool result the harness's parent got. */
export const lastResult = (hh: Harness) => (hh.history.filter((m) => m.role === "toolResult").at(-1) as ToolResultMessage).results[0]!;

/** The child session id a task result names. */
export const idOf = (content: string) => /child session (\S+)/.exec(content)![1]!;

/** The path of the harness's first saved child session. */
export const childPath = (hh: Harness) => hh.store.list({ kind: "child" })[0]!.path;


/**
 * A script whose parent delegates once and whose child, after its first turn, finds its session
 * file replaced by a directory (every later write fails with EISDIR), calls `echo`, then ends with `end`.
 */
export function childFileBreaks(getH: () => Harness, end: ScriptedTurn): (r: ModelRequest) => ScriptedTurn {
  return (r) => {
    if (!isChild(r)) return parentOnce(() => ({ prompt: "look" }))(r);
    if (r.messages.length === 1) {
      const path = childPath(getH());
      rmSync(path);
      mkdirSync(path);
      return { toolCalls: [{ name: "echo", arguments: { text: "a" } }] };
    }
    return end;
  };
}
