/**
 * The `demo` provider: an offline, deterministic model so Ink works with no key and no network.
 * Each reply is a pure function of the request (system, messages, tools): it investigates by
 * emitting real tool calls (grep/find/read, or parallel `task` calls when it can delegate), reads
 * their results from the following toolResult messages, and streams like a real provider.
 */
import { DEMO_DISCLOSURE, readContext, type DemoContext } from "./demo-conversation.js";
import { planDelegation } from "./demo-delegator.js";
import { planInvestigation } from "./demo-investigator.js";
import { planWorkerChild, planWorkers } from "./demo-workers.js";
import { streamReply, type DemoReply } from "./demo-stream.js";
import type { ModelRequest, Provider, ProviderStream } from "../protocol/provider.js";
import { errorMessage } from "../protocol/error-message.js";

export { extractKeywords } from "./demo-keywords.js";
export { DEMO_DISCLOSURE } from "./demo-conversation.js";

/** Options of the demo provider. */
export interface DemoProviderOptions {
  /** Pause between streamed chunks in ms; default `INK_DEMO_DELAY_MS`, else 15. Tests pass 0. */
  delayMs?: number;
}

const DEFAULT_DELAY_MS = 15;

/** The chunk delay: the option, else INK_DEMO_DELAY_MS, else the default. Throws a clear error on a bad value. */
export function resolveDemoDelay(option: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (option !== undefined) {
    if (!Number.isFinite(option) || option < 0) throw new RangeError(`demo provider: delayMs must be a number ≥ 0 (got ${String(option)}).`);
    return option;
  }
  const raw = env.INK_DEMO_DELAY_MS;
  if (raw === undefined || raw.trim() === "") return DEFAULT_DELAY_MS;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`INK_DEMO_DELAY_MS must be a number of milliseconds ≥ 0 (got "${raw}"); unset it or set e.g. INK_DEMO_DELAY_MS=15.`);
  }
  return value;
}

/** The mode of the request: a worker (notes demo), delegate when `task` is offered to a main agent, else investigate. */
function plan(context: DemoContext): DemoReply {
  if (context.subagent) {
    const worker = planWorkerChild(context);
    if (worker) return worker;
  }
  if (context.toolNames.has("task") && !context.subagent) return planWorkers(context) ?? planDelegation(context);
  return planInvestigation(context);
}

/**
 * planDemoReply: what the demo model answers to `request` — text and tool calls, with the
 * offline disclosure prepended to the main agent's first visible text. Pure; never throws.
 */
export function planDemoReply(request: ModelRequest): DemoReply {
  let context: DemoContext | undefined;
  let reply: DemoReply;
  try {
    context = readContext(request);
    reply = plan(context);
  } catch (err) {
    reply = { text: `The demo model could not make sense of this conversation (${errorMessage(err)}). Try a new request.`, calls: [] };
  }
  const subagent = context?.subagent ?? (typeof request.system === "string" && request.system.includes("# Subagent mode"));
  if (!subagent && !context?.disclosed && reply.text !== "") reply = { ...reply, text: `${DEMO_DISCLOSURE}\n\n${reply.text}` };
  return reply;
}

/** createDemoProvider: the offline demo provider (name "demo", model "demo", 200k context). */
export function createDemoProvider(options: DemoProviderOptions = {}): Provider {
  const delayMs = resolveDemoDelay(options.delayMs);
  return {
    name: "demo",
    defaultModel: "demo",
    contextWindow: () => 200_000,
    stream(request: ModelRequest): ProviderStream {
      const reply = planDemoReply(request);
      const turn = (Array.isArray(request.messages) ? request.messages.filter((m) => m.role === "assistant").length : 0) + 1;
      return streamReply(request, reply, turn, delayMs);
    },
  };
}
