/**
 * Asks the offline demo model one question through a real AgentSession (children, real tools) in
 * `cwd`, and collects what the children were told and called, and the final answer's text.
 */
import { AgentSession } from "../../src/host/agent-session.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { createDemoProvider } from "../../src/providers/demo.js";

export interface DemoAnswer {
  /** Each child's prompt, by child id. */
  prompts: Map<string, string>;
  /** Each child's tool calls, by child id. */
  calls: Map<string, Array<{ name: string; arguments: Record<string, unknown> }>>;
  /** The main agent's last text. */
  text: string;
}

/** Runs `prompt` to the end with the demo model (INK_HOME = `inkHome`) and returns what happened. */
export async function askDemo(cwd: string, inkHome: string, prompt: string): Promise<DemoAnswer> {
  const session = new AgentSession({ cwd, inkHome, provider: createDemoProvider({ delayMs: 0 }), model: "demo", interactive: true, approval: {} });
  const events: AgentEvent[] = [];
  await session.prompt(prompt, { onEvent: (e) => events.push(e) });
  session.close();
  const prompts = new Map<string, string>();
  const calls = new Map<string, Array<{ name: string; arguments: Record<string, unknown> }>>();
  for (const e of events) {
    if (e.type === "subagent_start") prompts.set(e.childId, e.prompt);
    if (e.type === "subagent_event" && e.event.type === "tool_start") calls.set(e.childId, [...(calls.get(e.childId) ?? []), e.event.call]);
  }
  const answer = session.history.at(-1)!;
  const text = answer.role === "assistant" ? answer.content.map((b) => (b.type === "text" ? b.text : "")).join("") : "";
  return { prompts, calls, text };
}
