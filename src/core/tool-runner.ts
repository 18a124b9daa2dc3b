/**
 * Runs the tool calls of one assistant message: overlap-safe calls (read-only tools, task) in
 * concurrent batches, the rest one at a time in order. Every call yields exactly one ToolResult —
 * unknown tools, invalid arguments, refusals, thrown errors and aborts all become error results.
 * Every result is capped (protocol/result-cap.ts) before the model sees it, whichever tool made it.
 */
import { getMaxListeners, setMaxListeners } from "node:events";
import type { AnyTool, ToolOutput } from "../protocol/tool.js";
import type { AgentEvent, AgentInfo } from "../protocol/events.js";
import type { ToolCall, ToolResult } from "../protocol/messages.js";
import { errorMessage } from "../protocol/error-message.js";
import { capToolResult } from "../protocol/result-cap.js";

/** The verdict of the pre-execution check. */
/** How the result of a call the approval refused begins (the reason follows). */
export const REFUSED = "tool call refused: ";

/**
 * `input`: the call runs with these arguments instead (a PreToolUse hook rewrote them; already
 * valid for the tool's schema); `note` is added to the result the model sees.
 */
export type ToolDecision = { allow: true; input?: Record<string, unknown>; note?: string } | { allow: false; reason: string };

/**
 * After a call ran (not refused, not invalid): returns text to add to the result the model sees
 * (PostToolUse hooks), or undefined. Contract: must not throw.
 */
export type AfterToolCall = (call: ToolCall, result: ToolOutput, agent: AgentInfo) => Promise<string | undefined>;

/**
 * Pre-execution check. Contract: must not throw; a refusal's reason is shown to the model. It may
 * carry `after`, run once the tool returned — it travels with the check to every child.
 */
export type OnToolCall = ((call: ToolCall, agent: AgentInfo, tool: AnyTool) => ToolDecision | Promise<ToolDecision>) & { after?: AfterToolCall; hides?: HidesPaths };

/** The paths deny rules hide from a call of `tool` in `cwd` (see ToolContext.hidden); travels with the check. */
export type HidesPaths = (tool: string, cwd: string) => ((absPath: string) => string | undefined) | undefined;

export interface ToolRunOptions {
  tools: readonly AnyTool[];
  cwd: string;
  agent: AgentInfo;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
  onToolCall?: OnToolCall;
  /** How long an aborted tool may take to return its own result before "interrupted" is used. */
  abortGraceMs?: number;
  /** Clock (ms) for `tool_end`'s durationMs (default Date.now). */
  now?: () => number;
}

/** The result recorded for a call that never ran or was cut off by an abort. */
export function interruptedResult(call: ToolCall): ToolResult {
  return { toolCallId: call.id, toolName: call.name, content: "interrupted: the run was aborted before this tool call finished", isError: true };
}

/** Runs every call; returns results in the calls' order (one per call). */
export async function runToolCalls(calls: readonly ToolCall[], options: ToolRunOptions): Promise<ToolResult[]> {
  // Concurrent calls each listen for the abort (the grace timer, the tool itself): a batch of a dozen
  // is normal, not a leak, so Node's warning at 10 listeners would only alarm the person.
  if (calls.length > 2) setMaxListeners(Math.max(getMaxListeners(options.signal), 10 + calls.length * 4), options.signal);
  const byName = new Map(options.tools.map((t) => [t.name, t] as const));
  const results: ToolResult[] = new Array(calls.length);
  let i = 0;
  while (i < calls.length) {
    const batch: number[] = [i];
    if (byName.get(calls[i]!.name)?.concurrent) {
      while (i + batch.length < calls.length && byName.get(calls[i + batch.length]!.name)?.concurrent) batch.push(i + batch.length);
    }
    await Promise.all(batch.map(async (k) => (results[k] = await runOne(calls[k]!, byName.get(calls[k]!.name), options))));
    i += batch.length;
  }
  return results;
}

/**
 * Runs one call. Its `tool_end` durationMs is how long the tool itself ran: the clock starts once
 * the pre-execution check (which may wait for the person's approval) has answered, so a call that
 * waited a minute for "y" and ran for 0.2s says 0.2s; a refused call says ~0.
 */
async function runOne(call: ToolCall, tool: AnyTool | undefined, options: ToolRunOptions): Promise<ToolResult> {
  const now = options.now ?? Date.now;
  let started = now();
  options.emit({ type: "tool_start", call });
  const finish = (output: ToolOutput): ToolResult => {
    const content = capToolResult(typeof output.output === "string" ? output.output : String(output.output), call.name);
    const result: ToolResult = { toolCallId: call.id, toolName: call.name, content, isError: output.isError, ...(output.images?.length ? { images: output.images } : {}) };
    options.emit({ type: "tool_end", call, result, details: output.details, durationMs: now() - started });
    return result;
  };
  if (options.signal.aborted) return finish({ output: interruptedResult(call).content, isError: true });
  if (!tool) {
    const names = options.tools.map((t) => t.name).join(", ") || "(none)";
    return finish({ output: `unknown tool "${call.name}". Available tools: ${names}.`, isError: true });
  }
  const parsed = tool.schema.safeParse(call.arguments);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((iss: { path: PropertyKey[]; message: string }) => `${iss.path.map(String).join(".") || "(arguments)"}: ${iss.message}`);
    return finish({ output: `invalid arguments for ${call.name}: ${issues.join("; ")}. Fix the arguments and call it again.`, isError: true });
  }
  let args: unknown = parsed.data;
  let note: string | undefined;
  if (options.onToolCall) {
    let decision: ToolDecision;
    try {
      decision = await options.onToolCall(call, { ...options.agent, cwd: options.agent.cwd ?? options.cwd }, tool);
    } catch (err) {
      decision = { allow: false, reason: `approval check failed: ${errorMessage(err)}` };
    }
    started = now(); // the approval wait is not the tool's time
    if (!decision.allow) return finish({ output: `${REFUSED}${decision.reason}`, isError: true });
    if (options.signal.aborted) return finish({ output: interruptedResult(call).content, isError: true });
    if (decision.input) {
      const rewritten = tool.schema.safeParse(decision.input);
      if (!rewritten.success) return finish({ output: `${call.name}: the rewritten input is not valid for the tool`, isError: true });
      call = { ...call, arguments: decision.input };
      args = rewritten.data;
    }
    note = decision.note;
  }
  let output: ToolOutput;
  try {
    const run = tool.execute(args, {
      signal: options.signal,
      cwd: options.cwd,
      toolCallId: call.id,
      onUpdate: (text) => options.emit({ type: "tool_update", toolCallId: call.id, text }),
      emit: options.emit,
      hidden: options.onToolCall?.hides?.(call.name, options.agent.cwd ?? options.cwd),
    });
    output = tool.returnsOnAbort ? await run : await withAbortGrace(run, options.signal, options.abortGraceMs ?? 3000);
  } catch (err) {
    output = { output: `${call.name} failed: ${errorMessage(err)}`, isError: true };
  }
  // `after` (PostToolUse / PostToolUseFailure hooks, checkpoints) sees every finished call, a thrown one
  // included; its own failure is reported beside the tool's result, never in place of it.
  let after: string | undefined;
  if (options.onToolCall?.after && !options.signal.aborted) {
    try {
      after = await options.onToolCall.after(call, output, { ...options.agent, cwd: options.agent.cwd ?? options.cwd });
    } catch (err) {
      after = `(the after-tool step failed: ${errorMessage(err)})`;
    }
  }
  const extra = [note, after].filter((t) => t !== undefined).join("\n");
  return finish(extra === "" ? output : { ...output, output: `${String(output.output)}\n\n${extra}` });
}

/** Waits for the tool; once aborted, waits at most `graceMs` more for it to return its own result. */
function withAbortGrace(run: Promise<ToolOutput>, signal: AbortSignal, graceMs: number): Promise<ToolOutput> {
  return new Promise<ToolOutput>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      timer = setTimeout(() => resolve({ output: "interrupted: the run was aborted before this tool call finished", isError: true }), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    run.then(
      (v) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
