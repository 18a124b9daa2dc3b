/**
 * runAgentLoop: the agent loop shared by the main agent and every child. Each iteration calls the
 * model with the whole history while streaming typed events out, appends the assistant message,
 * runs its tool calls and appends ONE toolResult message, until the model answers without tools,
 * the signal aborts or `maxIterations` is hit. History stays valid for the provider throughout.
 */
import { toToolSpec } from "../tools/spec.js";
import type { AnyTool } from "../protocol/tool.js";
import { isAbortError, isContextOverflowError } from "../protocol/provider-error.js";
import type { Provider, ThinkingConfig } from "../protocol/provider.js";
import { EventStream } from "../protocol/event-stream.js";
import type { AgentEvent, AgentInfo, LoopStopReason, SteerSource } from "../protocol/events.js";
import { addUsage, emptyUsage, toolCallsOf, type AgentMessage, type AssistantBlock, type AssistantMessage, type TextBlock, type Usage } from "../protocol/messages.js";
import { runToolCalls, type OnToolCall } from "./tool-runner.js";
import { createLoopHealth } from "./loop-health.js";
import { createCallIdIndex, uniqueCallIds } from "../protocol/unique-tool-ids.js";
import { CHARS_PER_TOKEN } from "./token-estimate.js";
import { errorMessage } from "../protocol/error-message.js";

export interface LoopOptions {
  provider: Provider;
  model: string;
  system: string;
  tools: readonly AnyTool[];
  /** Mutated in place: every message of the run is appended here. */
  history: AgentMessage[];
  /** Appended as a user message before the first model call. */
  userMessage?: string;
  /** Maximum model calls in this run (default unbounded). */
  maxIterations?: number;
  maxTokens?: number;
  thinking?: ThinkingConfig;
  /** Working directory the tools resolve paths against. */
  cwd: string;
  /** Who is running (default: main). */
  agent?: AgentInfo;
  signal?: AbortSignal;
  /** Called for every message appended to history. Contract: must not throw. */
  onMessage?: (message: AgentMessage) => void;
  /** Pre-execution check of each tool call. */
  onToolCall?: OnToolCall;
  /** Runs before every model call (compaction hook); may rewrite `history` in place. */
  onBeforeTurn?: (history: AgentMessage[], ctx: { signal: AbortSignal; turn: number }) => Promise<void> | void;
  /** Called once when the provider says the context is too long; return true after compacting to retry. */
  onContextOverflow?: (history: AgentMessage[], ctx: { signal: AbortSignal }) => Promise<boolean>;
  /** Receives every event. Contract: must not throw. */
  onEvent?: (event: AgentEvent) => void;
  /** Grace period for aborted tools to return their own result (ms). */
  abortGraceMs?: number;
  /**
   * Messages sent to this agent while it works, taken at each turn boundary: before every model
   * call, and when the model answered without tools (the run then goes on to read them). They
   * never land between a tool call and its result.
   */
  takeMessages?: () => SteerMessage[];
}

/** A message for a running agent and who sent it; `content` is what enters its history. */
export interface SteerMessage {
  text: string;
  from: SteerSource;
  content: string;
  /** Emitted instead of `steered` when the message enters the history (background-child deliveries). */
  event?: AgentEvent;
}

export interface LoopResult {
  reason: LoopStopReason;
  /** Model calls made in this run. */
  turns: number;
  usage: Usage;
}

export const MAIN_AGENT: AgentInfo = { id: "main", label: "main", depth: 0 };

/**
 * Runs the loop to completion. Resolves with why it stopped; rejects with the provider's error
 * (a ProviderError) when a model call fails — history is left valid either way.
 */
export async function runAgentLoop(options: LoopOptions): Promise<LoopResult> {
  const { provider, history } = options;
  const agent = options.agent ?? MAIN_AGENT;
  const signal = options.signal ?? new AbortController().signal;
  const emit = (event: AgentEvent) => options.onEvent?.(event);
  const append = (message: AgentMessage) => {
    history.push(message);
    try {
      options.onMessage?.(message);
    } catch (err) {
      // The history must stay valid even when persisting a message fails; report, do not throw.
      emit({ type: "error", message: `could not record a message: ${errorMessage(err)}` });
    }
    emit({ type: "message", message });
  };
  const usage = emptyUsage();
  const maxIterations = options.maxIterations ?? Number.POSITIVE_INFINITY;
  let turns = 0;
  let overflowRetried = false;
  const health = createLoopHealth();
  // The ids already in the history, read incrementally: a per-turn scan of the whole history made a long run quadratic.
  const callIds = createCallIdIndex(history);
  const stop = (reason: LoopStopReason): LoopResult => {
    emit({ type: "agent_end", reason, turns, usage });
    return { reason, turns, usage };
  };

  /** Appends the messages sent meanwhile, one user message each; true when there were any. */
  const readMessages = (): boolean => {
    const messages = options.takeMessages?.() ?? [];
    for (const m of messages) {
      append({ role: "user", content: m.content });
      emit(m.event ?? { type: "steered", text: m.text, from: m.from });
    }
    return messages.length > 0;
  };

  emit({ type: "agent_start", agent });
  if (options.userMessage !== undefined) append({ role: "user", content: options.userMessage });

  for (;;) {
    if (signal.aborted) return stop("aborted");
    if (turns >= maxIterations) return stop("max_iterations");
    readMessages();
    await options.onBeforeTurn?.(history, { signal, turn: turns + 1 });
    if (signal.aborted) return stop("aborted");
    turns++;
    emit({ type: "turn_start", turn: turns });

    const partial: AssistantBlock[] = [];
    const meter = newMeter();
    let assistant: AssistantMessage;
    try {
      // Each request advertises the pool as it is now: an MCP server that died or came up mid-run counts.
      assistant = await streamTurn(options, options.tools.map(specOf), signal, partial, emit, meter);
    } catch (err) {
      if (signal.aborted || isAbortError(err)) {
        const spent = partialUsage(meter, emit);
        addUsage(usage, spent);
        keepPartial(partial, append, spent);
        return stop("aborted");
      }
      if (isContextOverflowError(err) && !overflowRetried && options.onContextOverflow) {
        overflowRetried = true;
        let compacted: boolean;
        try {
          compacted = await options.onContextOverflow(history, { signal });
        } catch (hookErr) {
          // The hook explains why it cannot compact (e.g. the summariser is switched off).
          emit({ type: "error", message: errorMessage(hookErr) });
          throw hookErr;
        }
        if (compacted) {
          turns--;
          continue;
        }
      }
      emit({ type: "error", message: errorMessage(err) });
      throw err;
    }
    overflowRetried = false; // a later overflow in this run may compact again
    // A server that repeats a tool-call id would make the history invalid (and the session unresumable).
    const unique = uniqueCallIds(assistant, callIds.ids());
    if (unique.renamed.length > 0) {
      assistant = unique.message;
      emit({ type: "warning", source: "loop", message: `the model server repeated tool call id(s) ${unique.renamed.map((r) => r.from).join(", ")}; renamed to ${unique.renamed.map((r) => r.to).join(", ")}` });
    }
    addUsage(usage, assistant.usage);
    append(assistant);
    emit({ type: "turn_end", turn: turns, message: assistant });

    const calls = toolCallsOf(assistant);
    if (calls.length === 0) {
      if (signal.aborted) return stop("aborted");
      // A message that arrived while the model wrote its answer is read before the run ends.
      if (turns < maxIterations && readMessages()) continue;
      return stop("done");
    }
    for (const call of calls) {
      const warning = health.observe(call);
      if (warning) emit({ type: "warning", source: "loop", message: warning });
    }
    const results = await runToolCalls(calls, {
      tools: options.tools,
      cwd: options.cwd,
      agent,
      signal,
      emit,
      onToolCall: options.onToolCall,
      abortGraceMs: options.abortGraceMs,
    });
    append({ role: "toolResult", results });
    if (signal.aborted) return stop("aborted");
  }
}

const specs = new WeakMap<AnyTool, ReturnType<typeof toToolSpec>>();

/** A tool's spec for the provider, made once per tool object. */
function specOf(tool: AnyTool): ReturnType<typeof toToolSpec> {
  let spec = specs.get(tool);
  if (spec === undefined) specs.set(tool, (spec = toToolSpec(tool)));
  return spec;
}

/** Streams one model call, relaying deltas as events and collecting finished blocks in `partial`. */
async function streamTurn(
  options: LoopOptions,
  specs: ReturnType<typeof toToolSpec>[],
  signal: AbortSignal,
  partial: AssistantBlock[],
  emit: (event: AgentEvent) => void,
  meter: TurnMeter,
): Promise<AssistantMessage> {
  const stream = options.provider.stream({
    system: options.system,
    messages: options.history,
    tools: specs,
    model: options.model,
    maxTokens: options.maxTokens ?? 16_000,
    thinking: options.thinking,
    signal,
  });
  let text = "";
  for await (const event of stream) {
    switch (event.type) {
      case "text_delta":
        text += event.text;
        meter.chars += event.text.length;
        emit(event);
        break;
      case "thinking_delta":
        meter.chars += event.text.length;
        emit(event);
        break;
      case "usage":
        addUsage(meter.reported, event.usage);
        meter.chars = 0;
        emit(event);
        break;
      case "toolcall_start":
      case "toolcall_delta":
      case "retry":
        emit(event);
        break;
      case "toolcall_end":
        if (text) partial.push({ type: "text", text }), (text = "");
        partial.push(event.call);
        break;
    }
  }
  if (text) partial.push({ type: "text", text });
  return stream.result();
}

/** What one model call has cost so far: the usage its provider reported, and the characters streamed since. */
interface TurnMeter {
  reported: Usage;
  /** Text and thinking characters streamed since the provider's latest usage report. */
  chars: number;
}

function newMeter(): TurnMeter {
  return { reported: emptyUsage(), chars: 0 };
}

/**
 * The usage of a model call cut off by an abort: what its provider reported before the cut, plus
 * the output it streamed since, estimated at CHARS_PER_TOKEN characters a token — the same live
 * estimate a child's pane shows (the provider reports a call's usage only when it ends, so an
 * aborted call has no real count). The estimate is emitted as a `usage` event, so every total built
 * from usage events (panes, summaries, the status bar, /cost) counts it once, like the loop does.
 */
function partialUsage(meter: TurnMeter, emit: (event: AgentEvent) => void): Usage {
  const estimated = Math.ceil(meter.chars / CHARS_PER_TOKEN);
  if (estimated === 0) return { ...meter.reported };
  emit({ type: "usage", usage: { ...emptyUsage(), output: estimated } });
  return addUsage({ ...meter.reported }, { ...emptyUsage(), output: estimated });
}

/**
 * After an abort mid-stream: keep the streamed text only. Tool calls of an unfinished message never
 * ran, and with extended thinking on, a kept tool call without its (signed) thinking block would
 * make the provider reject the history.
 */
function keepPartial(partial: AssistantBlock[], append: (m: AgentMessage) => void, spent: Usage): void {
  const text = partial.filter((b): b is TextBlock => b.type === "text" && b.text.trim() !== "");
  if (text.length === 0) return;
  // No usage on the kept message: an output-only estimate would anchor the context-size estimate
  // (token-estimate.ts) far too low. The run's usage (LoopResult, agent_end) carries it, and
  // `abortedUsage` keeps it for a resumed session's totals.
  const known = spent.input + spent.output + spent.cacheRead + spent.cacheWrite > 0;
  append({ role: "assistant", content: text, stopReason: "aborted", usage: emptyUsage(), ...(known ? { abortedUsage: { ...spent } } : {}) });
}

/** The loop as an EventStream: iterate its events, await `result()` for the LoopResult. */
export function streamAgentLoop(options: Omit<LoopOptions, "onEvent">): EventStream<AgentEvent, LoopResult> {
  const stream = new EventStream<AgentEvent, LoopResult>();
  runAgentLoop({ ...options, onEvent: (e) => stream.push(e) }).then(
    (r) => stream.end(r),
    (e) => stream.fail(e),
  );
  return stream;
}
