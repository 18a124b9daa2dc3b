/**
 * The scripted provider: a model driven by a script, for tests and reproducible runs. A script is
 * an array of turns (one per call) or a function of the request. It streams text and tool calls
 * through exactly the same events as a real provider and records every request it received.
 */
import { EventStream } from "../protocol/event-stream.js";
import { emptyUsage, type AssistantBlock, type AssistantMessage, type ToolCall, type Usage } from "../protocol/messages.js";
import { ProviderError } from "../protocol/provider-error.js";
import type { ModelRequest, Provider, ProviderEvent, ProviderStream } from "../protocol/provider.js";

/** One scripted reply. */
export interface ScriptedTurn {
  text?: string;
  thinking?: string;
  toolCalls?: Array<{ id?: string; name: string; arguments: Record<string, unknown> }>;
  usage?: Partial<Usage>;
  /** Fail the call with this error instead of answering (after streaming `text`, if any). */
  error?: Error;
  /** Wait this long (honouring abort) before finishing; lets tests abort mid-stream. */
  delayMs?: number;
  /** Resolve before finishing; lets tests hold a turn open deterministically. */
  waitFor?: Promise<unknown>;
}

export type Script = ScriptedTurn[] | ((request: ModelRequest, callIndex: number) => ScriptedTurn | Promise<ScriptedTurn>);

export interface ScriptedProvider extends Provider {
  /** Every request received, in order (messages are snapshotted). */
  readonly requests: ModelRequest[];
}

/**
 * Creates a provider that answers from `script`. Running out of turns fails the call clearly.
 * `keepRequests: false` leaves `requests` empty (benchmarks: no copy of the history per call).
 */
export function createScriptedProvider(script: Script, options: { name?: string; model?: string; contextWindow?: number; keepRequests?: boolean; models?: readonly string[] } = {}): ScriptedProvider {
  const requests: ModelRequest[] = [];
  let calls = 0;
  let ids = 0;
  return {
    name: options.name ?? "scripted",
    defaultModel: options.model ?? "scripted-model",
    requests,
    ...(options.models ? { ownsModel: (m: string) => options.models!.includes(m), describeModels: () => options.models!.join(", ") } : {}),
    contextWindow: () => options.contextWindow ?? 200_000,
    stream(request: ModelRequest): ProviderStream {
      const stream = new EventStream<ProviderEvent, AssistantMessage>();
      const index = calls++;
      if (options.keepRequests !== false) requests.push({ ...request, messages: structuredClone(request.messages) });
      void (async () => {
        try {
          const turn = Array.isArray(script) ? script[index] : await script(request, index);
          if (!turn) throw new ProviderError("api", `scripted provider: no turn scripted for call ${index + 1}`);
          await play(turn, request, stream, () => `call_${++ids}`);
        } catch (err) {
          stream.fail(err);
        }
      })();
      return stream;
    },
  };
}

async function play(turn: ScriptedTurn, request: ModelRequest, stream: ProviderStream, nextId: () => string): Promise<void> {
  const signal = request.signal;
  const checkAbort = () => {
    if (signal?.aborted) throw new ProviderError("aborted", "aborted");
  };
  checkAbort();
  const content: AssistantBlock[] = [];
  if (turn.thinking) {
    stream.push({ type: "thinking_delta", text: turn.thinking });
    content.push({ type: "thinking", thinking: turn.thinking, signature: "scripted" });
  }
  if (turn.text) {
    for (const piece of chunks(turn.text)) stream.push({ type: "text_delta", text: piece });
    content.push({ type: "text", text: turn.text });
  }
  if (turn.waitFor) await abortable(turn.waitFor, signal);
  if (turn.delayMs) await abortable(new Promise((r) => setTimeout(r, turn.delayMs)), signal);
  checkAbort();
  if (turn.error) throw turn.error;
  for (const tc of turn.toolCalls ?? []) {
    const call: ToolCall = { type: "toolCall", id: tc.id ?? nextId(), name: tc.name, arguments: tc.arguments };
    stream.push({ type: "toolcall_start", id: call.id, name: call.name });
    stream.push({ type: "toolcall_delta", id: call.id, partialJson: JSON.stringify(call.arguments) });
    stream.push({ type: "toolcall_end", call });
    content.push(call);
  }
  // Default usage: a plausible estimate (~4 characters a token), like a real provider would report;
  // only computed when the turn does not give it (serialising the history is O(history) per call).
  const input = turn.usage?.input ?? Math.ceil((request.system.length + JSON.stringify(request.messages).length + JSON.stringify(request.tools).length) / 4);
  const output = turn.usage?.output ?? Math.ceil(JSON.stringify(content).length / 4);
  const usage = { ...emptyUsage(), input, output, ...turn.usage };
  stream.push({ type: "usage", usage });
  stream.end({ role: "assistant", content, stopReason: content.some((b) => b.type === "toolCall") ? "tool_use" : "end_turn", usage, model: request.model });
}

function chunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 16) out.push(text.slice(i, i + 16));
  return out;
}

function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ProviderError("aborted", "aborted"));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
