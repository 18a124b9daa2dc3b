/**
 * bench/claude-code-router.ts: how the bench's loopback server answers Claude Code's requests, from
 * bodies shaped as Claude Code 2.1 sends them (a system reminder before the prompt typed, its agent
 * tool named `Agent`, background agents reporting by task notifications). No Claude Code needed.
 */
import { describe, expect, it } from "vitest";
import { childCallId, reportedChildren, routeClaudeCode, type ClaudeChildren, type ClaudeScript } from "../../bench/claude-code-router.js";
import type { FakeResponse } from "../helpers/fake-anthropic-server.js";

const PROMPT = "explain the login flow";
const reminder = { type: "text", text: "<system-reminder>\nAttribution for git commits …\n</system-reminder>\n" };
const typed = (text: string) => ({ role: "user", content: [reminder, { type: "text", text }] });
const tools = (...names: string[]) => names.map((name) => ({ name, input_schema: { type: "object" } }));
const body = (messages: unknown[], toolNames = ["Agent", "Bash", "Read"]) => ({ model: "claude-opus-5-5", stream: true, tools: tools(...toolNames), messages });

const answer = (label: string): FakeResponse => ({ kind: "sse", events: [{ event: "label", data: label }] });
const children: ClaudeChildren = {
  prompt: PROMPT,
  count: 8,
  childPrompt: (i) => `look at part ${i} of the code base`,
  child: (i) => answer(`child ${i}`),
  done: "child report done",
  final: () => answer("final"),
};
const label = (r: FakeResponse) => (r.kind === "sse" ? r.events.find((e) => e.event === "label")?.data : undefined);
const textOf = (r: FakeResponse) =>
  r.kind === "sse" ? r.events.map((e) => (e.data as { delta?: { text?: string } }).delta?.text ?? "").join("") : "";
const toolUses = (r: FakeResponse) =>
  r.kind === "sse"
    ? r.events.filter((e) => e.event === "content_block_start" && (e.data as any).content_block.type === "tool_use").map((e) => (e.data as any).content_block)
    : [];
const toolInputs = (r: FakeResponse) =>
  r.kind === "sse" ? r.events.filter((e) => (e.data as any).delta?.type === "input_json_delta").map((e) => (e.data as any).delta.partial_json as string).join("") : "";

/** The main conversation after the delegation: the 8 calls and Claude Code's "launched in the background" results. */
const delegated = [
  typed(PROMPT),
  { role: "assistant", content: [{ type: "text", text: "Delegating." }, ...Array.from({ length: 8 }, (_, i) => ({ type: "tool_use", id: childCallId(i), name: "Agent", input: {} }))] },
  { role: "user", content: Array.from({ length: 8 }, (_, i) => ({ type: "tool_result", tool_use_id: childCallId(i), content: [{ type: "text", text: "Async agent launched successfully.\nagentId: a1" }] })) },
];
const notification = (...parts: number[]) => ({
  role: "user",
  content: [{ type: "text", text: parts.map((i) => `<system-reminder>\n<task-notification>\n<task-id>a${i}</task-id>\n<tool-use-id>${childCallId(i)}</tool-use-id>\n<status>completed</status>\n<result>… child report done</result>\n</task-notification>\n</system-reminder>`).join("\n") }],
});

describe("routeClaudeCode (the claude bench group's server)", () => {
  const script: ClaudeScript = { answers: {}, children };

  it("answers the delegating prompt with one call of Claude Code's agent tool per child, each with its child's prompt", () => {
    const r = routeClaudeCode(body([typed(PROMPT)]), script);
    expect(toolUses(r).map((b) => [b.name, b.id])).toEqual(Array.from({ length: 8 }, (_, i) => ["Agent", childCallId(i)]));
    for (let i = 0; i < 8; i++) expect(toolInputs(r)).toContain(JSON.stringify({ description: `part ${i}`, prompt: `look at part ${i} of the code base` }));
  });

  it("names the tool as the request's tool list does (Task in older versions), and fails clearly without one", () => {
    expect(toolUses(routeClaudeCode(body([typed(PROMPT)], ["Task", "Bash"]), script)).map((b) => b.name)).toEqual(Array(8).fill("Task"));
    const none = routeClaudeCode(body([typed(PROMPT)], ["Bash"]), script);
    expect(none.kind).toBe("http_error");
    expect(JSON.stringify(none)).toContain("no Agent/Task tool");
  });

  it("answers each child's requests with that child's report, whatever order they arrive in", () => {
    for (const i of [5, 0, 7]) expect(label(routeClaudeCode(body([typed(`look at part ${i} of the code base`)], ["Bash", "Read"]), script))).toBe(`child ${i}`);
  });

  it("keeps the main conversation waiting until every child has reported by notification, then gives the final answer", () => {
    expect(textOf(routeClaudeCode(body(delegated), script))).toBe("Waiting for the children.");
    const seven = [...delegated, notification(0, 1, 2), { role: "assistant", content: [{ type: "text", text: "Waiting for the children." }] }, notification(3, 4, 5, 6)];
    expect(label(routeClaudeCode(body(seven), script))).toBeUndefined();
    expect(textOf(routeClaudeCode(body(seven), script))).toBe("Waiting for the children.");
    expect(label(routeClaudeCode(body([...seven, notification(7)]), script))).toBe("final");
  });

  it("counts a child's tool result as its report only when it carries the report's last line (agents run in the foreground)", () => {
    const results = (n: number) => ({
      role: "user",
      content: Array.from({ length: 8 }, (_, i) => ({ type: "tool_result", tool_use_id: childCallId(i), content: i < n ? "Paragraph 0 …\nchild report done\n" : [{ type: "text", text: "Async agent launched successfully." }] })),
    });
    expect(reportedChildren([results(5)], children)).toEqual(new Set([0, 1, 2, 3, 4]));
    expect(label(routeClaudeCode(body([...delegated.slice(0, 2), results(7)]), script))).toBeUndefined();
    expect(label(routeClaudeCode(body([...delegated.slice(0, 2), results(8)]), script))).toBe("final");
  });

  it("answers the last prompt typed with its scripted answer (a paced answer below an earlier one)", () => {
    const paced: ClaudeScript = { answers: { "repeat the earlier answer": () => answer("earlier"), [PROMPT]: () => answer("paced") } };
    expect(label(routeClaudeCode(body([typed("repeat the earlier answer")]), paced))).toBe("earlier");
    const second = [typed("repeat the earlier answer"), { role: "assistant", content: [{ type: "text", text: "… end of the earlier answer" }] }, typed(PROMPT)];
    expect(label(routeClaudeCode(body(second), paced))).toBe("paced");
  });

  it("gives Claude Code's side requests (a title, a summary quoting the prompt) a one-word answer, not a scripted one", () => {
    const paced: ClaudeScript = { answers: { [PROMPT]: () => answer("paced") } };
    const title = routeClaudeCode(body([{ role: "user", content: `Write a title for: ${PROMPT}` }], []), paced);
    expect(label(title)).toBeUndefined();
    expect(textOf(title)).toBe("OK");
  });
});
