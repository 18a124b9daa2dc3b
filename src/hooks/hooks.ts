/**
 * Hooks: runs the commands configured for an event (src/hooks/config.ts) whose matcher fits, in
 * parallel, each with the documented JSON on stdin (session_id, transcript_path, cwd,
 * permission_mode, hook_event_name and the event's fields), and folds their answers into one
 * outcome: exit 2 blocks with stderr as the reason; exit 0 may print JSON (`decision: "block"`,
 * `reason`, `hookSpecificOutput.permissionDecision` / `updatedInput` / `additionalContext`, `continue`,
 * `systemMessage`) or plain text (context for UserPromptSubmit / SessionStart); any other exit,
 * a timeout or a failure to start is reported as a line for the transcript and does not block.
 * A hook with `async: true` runs in the background: nothing waits for it and its output is no
 * decision (only its failure is reported). `permission_mode` carries Claude Code's names
 * (default, acceptEdits, plan, bypassPermissions); SessionStart hooks get `CLAUDE_ENV_FILE`.
 */
import { matcherMatches, type HookEntry, type HookEventName } from "./config.js";
import { runHookCommand } from "./runner.js";

/** What the hooks of one event said, folded. */
export interface HookOutcome {
  /** A hook blocked (exit 2, `decision: "block"`, or PreToolUse `permissionDecision: "deny"`). */
  blocked?: { reason: string; command: string };
  /** PreToolUse: a hook allowed the call (skipping the permission check) or asked the person. */
  permission?: "allow" | "ask";
  permissionReason?: string;
  /** PreToolUse: the first hook's `hookSpecificOutput.updatedInput` (the call's input rewritten), with the hook's command. */
  updatedInput?: { input: Record<string, unknown>; command: string };
  /** Text the hooks add to the model's context. */
  context: string[];
}

export interface HooksContext {
  sessionId: string;
  cwd: string;
  /** The session file (may appear once the first prompt created it). */
  transcriptPath: () => string | undefined;
  permissionMode: () => string;
  /** A line for the transcript: a hook blocked, failed, timed out, or said something. */
  report: (line: string) => void;
  envPassthrough?: readonly string[];
  /** The file SessionStart hooks may write `export VAR=value` lines to (CLAUDE_ENV_FILE). */
  envFile?: string;
}

/** Ink's permission modes → the names Claude Code's hooks are given. */
const CLAUDE_PERMISSION_MODE: Readonly<Record<string, string>> = { default: "default", "accept-edits": "acceptEdits", plan: "plan", yolo: "bypassPermissions" };

/** The `permission_mode` a hook sees for Ink's `mode`. */
export function claudePermissionMode(mode: string): string {
  return CLAUDE_PERMISSION_MODE[mode] ?? mode;
}

const PLAIN_STDOUT_IS_CONTEXT = new Set<HookEventName>(["UserPromptSubmit", "SessionStart"]);

function shortCommand(command: string): string {
  const one = command.replace(/\s+/g, " ").trim();
  return one.length > 60 ? `${one.slice(0, 57)}…` : one;
}

export class Hooks {
  constructor(
    readonly entries: readonly HookEntry[],
    private readonly ctx: HooksContext,
  ) {}

  /** Puts a line in the transcript (a hook blocked something). */
  say(line: string): void {
    this.ctx.report(line);
  }

  /** True when some hook is configured for `event` (callers skip building its input otherwise). */
  has(event: HookEventName): boolean {
    return this.entries.some((e) => e.event === event);
  }

  /**
   * Runs the hooks of `event` whose matcher fits one of `matchOn` and folds their answers. Never
   * rejects; problems are reported through `report`.
   */
  async run(event: HookEventName, fields: Record<string, unknown>, opts: { matchOn?: readonly string[]; signal?: AbortSignal } = {}): Promise<HookOutcome> {
    const outcome: HookOutcome = { context: [] };
    const chosen = this.entries.filter((e) => e.event === event && (opts.matchOn === undefined ? true : matcherMatches(e.matcher, opts.matchOn)));
    if (chosen.length === 0) return outcome;
    const input = {
      session_id: this.ctx.sessionId,
      transcript_path: this.ctx.transcriptPath() ?? "",
      cwd: this.ctx.cwd,
      permission_mode: claudePermissionMode(this.ctx.permissionMode()),
      hook_event_name: event,
      ...fields,
    };
    const env: Record<string, string> = { CLAUDE_PROJECT_DIR: this.ctx.cwd, INK_PROJECT_DIR: this.ctx.cwd };
    if (event === "SessionStart" && this.ctx.envFile) env.CLAUDE_ENV_FILE = this.ctx.envFile;
    for (const e of chosen.filter((c) => c.async)) this.background(event, e, input, env);
    const runs = await Promise.all(
      chosen.filter((c) => !c.async).map((e) => runHookCommand({ command: e.command, input, cwd: this.ctx.cwd, timeoutMs: e.timeoutSec * 1000, signal: opts.signal, env, envPassthrough: this.ctx.envPassthrough }).then((r) => ({ e, r }))),
    );
    for (const { e, r } of runs) {
      const name = `${event} hook \`${shortCommand(e.command)}\``;
      if (r.error !== undefined) {
        this.ctx.report(`${name} could not start: ${r.error} (from ${e.source})`);
        continue;
      }
      if (r.timedOut) {
        this.ctx.report(`${name} timed out after ${e.timeoutSec}s and was killed (from ${e.source}; raise its "timeout" if it needs longer)`);
        continue;
      }
      if (r.aborted) continue;
      if (r.code === 2) {
        const reason = r.stderr.trim() || `the hook exited with code 2 and gave no reason`;
        outcome.blocked ??= { reason, command: e.command };
        continue;
      }
      if (r.code !== 0) {
        this.ctx.report(`${name} failed (exit ${r.code})${r.stderr.trim() ? `: ${r.stderr.trim().split("\n")[0]}` : ""} — it did not block`);
        continue;
      }
      this.fold(event, e, r.stdout, outcome, name);
    }
    return outcome;
  }

  /** Starts an `async` hook and does not wait: only a failure to start, a timeout or a failing exit is reported. */
  private background(event: HookEventName, e: HookEntry, input: unknown, env: Record<string, string>): void {
    const name = `${event} hook \`${shortCommand(e.command)}\` (in the background)`;
    void runHookCommand({ command: e.command, input, cwd: this.ctx.cwd, timeoutMs: e.timeoutSec * 1000, env, envPassthrough: this.ctx.envPassthrough }).then((r) => {
      if (r.error !== undefined) this.ctx.report(`${name} could not start: ${r.error} (from ${e.source})`);
      else if (r.timedOut) this.ctx.report(`${name} timed out after ${e.timeoutSec}s and was killed (from ${e.source}; raise its "timeout" if it needs longer)`);
      else if (r.code !== 0 && r.code !== null) this.ctx.report(`${name} failed (exit ${r.code})${r.stderr.trim() ? `: ${r.stderr.trim().split("\n")[0]}` : ""} (from ${e.source})`);
    });
  }

  /** Reads one successful hook's stdout into `outcome`. */
  private fold(event: HookEventName, e: HookEntry, stdout: string, outcome: HookOutcome, name: string): void {
    const text = stdout.trim();
    if (text === "") return;
    let json: Record<string, any> | undefined;
    if (text.startsWith("{")) {
      try {
        json = JSON.parse(text);
      } catch {
        this.ctx.report(`${name} printed output that starts like JSON but is not valid JSON; it was ignored`);
        return;
      }
    }
    if (!json) {
      if (PLAIN_STDOUT_IS_CONTEXT.has(event)) outcome.context.push(text);
      return;
    }
    const specific = (json.hookSpecificOutput ?? {}) as Record<string, any>;
    if (typeof json.systemMessage === "string" && json.systemMessage.trim()) this.ctx.report(`${name}: ${json.systemMessage.trim()}`);
    const reason = typeof json.reason === "string" && json.reason.trim() ? json.reason.trim() : undefined;
    // PermissionRequest: hookSpecificOutput.decision {behavior: "allow" | "deny", message, updatedInput}.
    const requested = event === "PermissionRequest" && specific.decision !== null && typeof specific.decision === "object" ? (specific.decision as Record<string, any>) : undefined;
    const permissionReason = typeof requested?.message === "string" ? requested.message : typeof specific.permissionDecisionReason === "string" ? specific.permissionDecisionReason : reason;
    // PreToolUse: hookSpecificOutput.permissionDecision, or the older decision "approve" / "block".
    const permission = requested?.behavior ?? specific.permissionDecision ?? (json.decision === "approve" ? "allow" : undefined);
    if (permission === "deny" || json.decision === "block") {
      outcome.blocked ??= { reason: (permission === "deny" ? permissionReason : reason) ?? `blocked by ${e.command}`, command: e.command };
    } else if (permission === "ask" || permission === "allow") {
      if (outcome.permission !== "ask") outcome.permission = permission;
      outcome.permissionReason ??= permissionReason;
    }
    if (json.continue === false) {
      outcome.blocked ??= { reason: typeof json.stopReason === "string" ? json.stopReason : (reason ?? `stopped by ${e.command}`), command: e.command };
    }
    const updated = requested ? requested.updatedInput : specific.updatedInput;
    if ((event === "PreToolUse" || (event === "PermissionRequest" && permission === "allow")) && updated !== undefined) {
      if (updated === null || typeof updated !== "object" || Array.isArray(updated)) this.ctx.report(`${name} gave an updatedInput that is not a JSON object; it was ignored`);
      else outcome.updatedInput ??= { input: updated, command: e.command };
    }
    const extra = specific.additionalContext ?? json.additionalContext;
    if (typeof extra === "string" && extra.trim()) outcome.context.push(extra.trim());
  }
}

/** A description of a hook's command for transcript lines. */
export function hookLabel(event: HookEventName, command: string): string {
  return `${event} hook \`${shortCommand(command)}\``;
}
