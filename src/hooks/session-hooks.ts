/**
 * The session's hook events around prompts and children: SessionStart (before the first prompt),
 * UserPromptSubmit, Stop and SubagentStop (a block sends the agent back to work with the reason,
 * once per block, at most MAX_STOP_ROUNDS times in a row), SubagentStart, PreCompact,
 * Notification and SessionEnd. The loop, the task tool and AgentSession only call these.
 */
import type { AgentInfo } from "../protocol/events.js";
import { addUsage, type Usage } from "../protocol/messages.js";
import type { LoopResult } from "../core/loop.js";
import { Hooks, type HooksContext } from "./hooks.js";
import { loadHooks } from "./config.js";
import { EnvFile } from "./env-file.js";
import { agentFields, hookToolInput, rewrittenArguments, toolNames } from "./tool-hooks.js";
import type { ApprovalOptions } from "../core/approval.js";

type AskPerson = NonNullable<ApprovalOptions["ask"]>;

/** Continuations a Stop / SubagentStop hook may ask for in a row before the agent is let stop. */
export const MAX_STOP_ROUNDS = 5;

/** What runSubagent asks of the hooks. */
export interface SubagentHookCalls {
  /** SubagentStart: context to add to the child's first message. */
  start(agent: AgentInfo, signal?: AbortSignal): Promise<string[]>;
  /** SubagentStop with the child's report: the reason to send it back for more work, or undefined. */
  stop(agent: AgentInfo, report: string, active: boolean, transcriptPath: string | undefined, signal?: AbortSignal): Promise<string | undefined>;
}

/** The feedback message an agent gets when a stop hook sends it back. */
export function stopFeedback(event: "Stop" | "SubagentStop", reason: string): string {
  return `[${event} hook] Your work is not finished yet: ${reason}`;
}

/**
 * Runs `first`, then — while the run ended normally and `ask` (a Stop / SubagentStop hook) gives a
 * reason — `again(reason)`, at most MAX_STOP_ROUNDS times. Turns and usage are summed.
 */
export async function runWithStopHook(first: () => Promise<LoopResult>, again: (feedback: string) => Promise<LoopResult>, ask: (active: boolean) => Promise<string | undefined>, onLimit?: () => void): Promise<LoopResult> {
  let result = await first();
  for (let round = 0; result.reason === "done"; round++) {
    const reason = await ask(round > 0);
    if (reason === undefined) break;
    if (round >= MAX_STOP_ROUNDS) {
      onLimit?.();
      break;
    }
    const next = await again(reason);
    const usage: Usage = { ...result.usage };
    addUsage(usage, next.usage);
    result = { reason: next.reason, turns: result.turns + next.turns, usage };
  }
  return result;
}

export class SessionHooks {
  private started = false;

  constructor(
    readonly hooks: Hooks,
    /** Hook entries that were skipped, for the session's notices. */
    readonly problems: readonly string[] = [],
    /** CLAUDE_ENV_FILE, made only when a SessionStart hook is configured. */
    private readonly envFile?: EnvFile,
  ) {}

  /** Loads the hooks of the user's settings and (trusted only) the project's files. Never throws. */
  static load(opts: { inkHome: string; trusted: boolean } & HooksContext): SessionHooks {
    const config = loadHooks({ inkHome: opts.inkHome, cwd: opts.cwd, trusted: opts.trusted });
    const envFile = config.entries.some((e) => e.event === "SessionStart") ? EnvFile.create(opts.report) : undefined;
    return new SessionHooks(new Hooks(config.entries, { ...opts, envFile: envFile?.path }), config.problems, envFile);
  }

  /** The variables SessionStart hooks exported through CLAUDE_ENV_FILE, for bash commands. */
  bashEnv(): Record<string, string> {
    return this.envFile?.variables() ?? {};
  }

  /** Removes CLAUDE_ENV_FILE (the session is closing). */
  dispose(): void {
    this.envFile?.remove();
  }

  /** Lines for `/context`: every hook with its file, and the skipped entries. */
  describe(): string[] {
    if (this.hooks.entries.length === 0 && this.problems.length === 0) return [];
    return [
      "Hooks (run as commands on your machine):",
      ...this.hooks.entries.map((e) => `  ${e.event}${e.matcher ? ` [${e.matcher}]` : ""}: ${e.command}${e.async ? " (in the background)" : ""} (from ${e.source})`),
      ...this.problems.map((p) => `  ${p}`),
    ];
  }

  /** `ask` with a Notification hook fired (not awaited) each time the person is asked. */
  notifying<C extends { name: string }, R extends unknown[], T>(ask: ((call: C, ...rest: R) => T) | undefined): ((call: C, ...rest: R) => T) | undefined {
    return ask && ((call: C, ...rest: R) => (void this.notify(`Ink needs your permission to use ${call.name}`, "permission_prompt"), ask(call, ...rest)));
  }

  /**
   * `ask` with PermissionRequest hooks first: a hook's `decision.behavior` "allow" / "deny" answers
   * for the person (an `updatedInput` rewrites the call); without one the person is asked. Only
   * calls no rule refused reach `ask`, so a hook's allow never overrides a deny rule.
   */
  permissionRequest(ask: AskPerson | undefined): AskPerson | undefined {
    if (!ask || !this.hooks.has("PermissionRequest")) return ask;
    const hooks = this.hooks;
    return async (call, agent, why) => {
      const names = toolNames(call.name);
      const shown = hookToolInput(call, agent.cwd ?? process.cwd());
      const out = await hooks.run("PermissionRequest", { tool_name: names[0], tool_input: shown, permission_suggestions: [], ...agentFields(agent) }, { matchOn: names });
      if (out.blocked) {
        hooks.say(`PermissionRequest hook denied ${call.name}: ${out.blocked.reason}`);
        return { allow: false, reason: `a PermissionRequest hook denied this call: ${out.blocked.reason}` };
      }
      if (out.permission === "allow") {
        hooks.say(`PermissionRequest hook allowed ${call.name}${out.permissionReason ? `: ${out.permissionReason}` : ""}`);
        return out.updatedInput ? { allow: true, input: rewrittenArguments(call, shown, out.updatedInput.input) } : { allow: true };
      }
      return ask(call, agent, why);
    };
  }

  /**
   * Before a prompt: SessionStart once (source "startup", or "resume" for a reopened session),
   * then UserPromptSubmit. `blocked` is the reason when a hook refused the prompt; `context` is
   * what the hooks add to the message.
   */
  async beforePrompt(prompt: string, opts: { resumed: boolean; signal?: AbortSignal }): Promise<{ blocked?: string; context: string[] }> {
    const context: string[] = [];
    if (!this.started) {
      this.started = true;
      const source = opts.resumed ? "resume" : "startup";
      const start = await this.hooks.run("SessionStart", { source }, { matchOn: [source], signal: opts.signal });
      context.push(...start.context);
    }
    const out = await this.hooks.run("UserPromptSubmit", { prompt }, { signal: opts.signal });
    if (out.blocked) {
      this.hooks.say(`UserPromptSubmit hook blocked this prompt: ${out.blocked.reason}`);
      return { blocked: out.blocked.reason, context };
    }
    return { context: [...context, ...out.context] };
  }

  /** The Stop hook after the main agent answered: the reason to go on, or undefined. */
  async stop(active: boolean, lastText: string, signal?: AbortSignal): Promise<string | undefined> {
    if (!this.hooks.has("Stop")) return undefined;
    const out = await this.hooks.run("Stop", { stop_hook_active: active, last_assistant_message: lastText }, { signal });
    if (!out.blocked) return undefined;
    this.hooks.say(`Stop hook sent the agent back to work: ${out.blocked.reason}`);
    return out.blocked.reason;
  }

  /** The calls runSubagent makes (undefined when no subagent hook is configured). */
  get subagent(): SubagentHookCalls | undefined {
    if (!this.hooks.has("SubagentStart") && !this.hooks.has("SubagentStop")) return undefined;
    const hooks = this.hooks;
    return {
      async start(agent, signal) {
        const fields = agentFields(agent);
        const out = await hooks.run("SubagentStart", fields, { matchOn: [fields.agent_type ?? "general-purpose"], signal });
        return out.context;
      },
      async stop(agent, report, active, transcriptPath, signal) {
        const fields = agentFields(agent);
        const out = await hooks.run("SubagentStop", { ...fields, stop_hook_active: active, agent_transcript_path: transcriptPath ?? "", last_assistant_message: report }, { matchOn: [fields.agent_type ?? "general-purpose"], signal });
        if (!out.blocked) return undefined;
        hooks.say(`SubagentStop hook sent the report of ${agent.label} (${agent.id}) back: ${out.blocked.reason}`);
        return out.blocked.reason;
      },
    };
  }

  /** PreCompact, before a summary replaces older history (it cannot stop the compaction). */
  async preCompact(manual: boolean, signal?: AbortSignal): Promise<void> {
    const trigger = manual ? "manual" : "auto";
    await this.hooks.run("PreCompact", { trigger, custom_instructions: "" }, { matchOn: [trigger], signal });
  }

  /** Notification (not awaited by callers: the person's question does not wait for it). */
  notify(message: string, type: string): Promise<unknown> {
    return this.hooks.run("Notification", { message, notification_type: type }, { matchOn: [type] });
  }

  /** SessionEnd, once the person is done with the session (`signal`: a signal exit cuts the hooks short). */
  async end(reason: "clear" | "logout" | "prompt_input_exit" | "other", signal?: AbortSignal): Promise<void> {
    await this.hooks.run("SessionEnd", { reason }, { matchOn: [reason], signal });
  }
}
