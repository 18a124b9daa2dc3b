/**
 * How the loopback Messages-API server answers Claude Code in the `claude` bench group: by the
 * content of each request, since Claude Code sends its main conversation, its subagents and its own
 * side requests (titles, summaries) to the same endpoint, children in parallel and in any order.
 *
 * - A request whose user turn is one of the prompts typed (a text block equal to it) is the main
 *   conversation: the scripted answer of the last such prompt.
 * - The delegating prompt is answered with one call of Claude Code's agent tool (named `Agent`, or
 *   `Task` in older versions: whichever the request's tool list has) per child; then, while some
 *   child has not reported, with a short waiting text (Claude Code runs agents in the background and
 *   calls the main conversation again as each one finishes); once all have, with the final answer.
 *   A child has reported when the conversation holds its task notification (`<tool-use-id>`) or a
 *   tool result for its call that carries its report's last line.
 * - A request whose first user turn is a child's prompt is that child: its report.
 * - Anything else gets a one-word answer.
 */
import type { FakeResponse } from "../test/helpers/fake-anthropic-server.js";
import { sseTurn } from "../test/helpers/fake-anthropic-server.js";

/** The 1 main + N children part of a script. */
export interface ClaudeChildren {
  /** The prompt typed that delegates. */
  prompt: string;
  count: number;
  /** The prompt the main conversation gives child `part` (also how its requests are recognised). */
  childPrompt: (part: number) => string;
  /** Child `part`'s report; its text ends with `done`. */
  child: (part: number) => FakeResponse;
  done: string;
  /** The main conversation's answer once every child reported. */
  final: () => FakeResponse;
}

/** What the server answers: per prompt typed, and optionally 1 main + N children. */
export interface ClaudeScript {
  answers: Record<string, () => FakeResponse>;
  children?: ClaudeChildren;
}

/** The id of the agent-tool call for child `part`. */
export const childCallId = (part: number) => `toolu_bench_${part}`;

interface Message {
  role: string;
  content: unknown;
}

/** The text blocks of a message (a string content is one block). */
function texts(m: Message): string[] {
  if (typeof m.content === "string") return [m.content];
  if (!Array.isArray(m.content)) return [];
  return m.content.filter((b) => b?.type === "text" && typeof b.text === "string").map((b) => b.text as string);
}

/** The text of a tool result's content (a string or text blocks). */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((b) => (typeof b?.text === "string" ? b.text : "")).join("\n") : "";
}

/** The child parts that have reported in `messages` (see the module's comment). */
export function reportedChildren(messages: Message[], children: ClaudeChildren): Set<number> {
  const reported = new Set<number>();
  const ids = new Map(Array.from({ length: children.count }, (_, i) => [childCallId(i), i]));
  for (const m of messages) {
    if (m.role !== "user") continue;
    for (const t of texts(m)) {
      for (const [id, part] of ids) if (t.includes(`<tool-use-id>${id}</tool-use-id>`)) reported.add(part);
    }
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      const part = b?.type === "tool_result" ? ids.get(b.tool_use_id) : undefined;
      if (part !== undefined && resultText(b.content).includes(children.done)) reported.add(part);
    }
  }
  return reported;
}

/** The agent tool's name in the request's tool list (`Agent`, or `Task` in older versions), or undefined. */
export function agentToolName(body: any): string | undefined {
  const names: string[] = Array.isArray(body?.tools) ? body.tools.map((t: { name?: string }) => t?.name) : [];
  return names.find((n) => n === "Agent") ?? names.find((n) => n === "Task");
}

/** The answer to one request `body` of Claude Code under `script`. */
export function routeClaudeCode(body: any, script: ClaudeScript): FakeResponse {
  const messages: Message[] = Array.isArray(body?.messages) ? body.messages : [];
  const users = messages.filter((m) => m?.role === "user");
  const kids = script.children;
  if (kids) {
    const first = users[0] ? texts(users[0]) : [];
    for (let part = 0; part < kids.count; part++) if (first.includes(kids.childPrompt(part))) return kids.child(part);
  }
  const prompts = [...Object.keys(script.answers), ...(kids ? [kids.prompt] : [])];
  const typed = users.flatMap(texts).filter((t) => prompts.includes(t)).at(-1);
  if (typed === undefined) return sseTurn([{ text: "OK" }]);
  if (!kids || typed !== kids.prompt) return script.answers[typed]!();
  let at = messages.length - 1;
  while (at >= 0 && !(messages[at]!.role === "user" && texts(messages[at]!).includes(kids.prompt))) at--;
  const afterPrompt = messages.slice(at + 1);
  const delegated = afterPrompt.some((m) => m.role === "assistant" && Array.isArray(m.content) && m.content.some((b) => b?.type === "tool_use" && b.id === childCallId(0)));
  if (!delegated) {
    const tool = agentToolName(body);
    if (!tool) return { kind: "http_error", status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "bench: no Agent/Task tool in Claude Code's request" } } };
    const calls = Array.from({ length: kids.count }, (_, i) => ({ toolUse: { id: childCallId(i), name: tool, input: { description: `part ${i}`, prompt: kids.childPrompt(i) } } }));
    return sseTurn([{ text: "Delegating." }, ...calls]);
  }
  return reportedChildren(afterPrompt, kids).size === kids.count ? kids.final() : sseTurn([{ text: "Waiting for the children." }]);
}
