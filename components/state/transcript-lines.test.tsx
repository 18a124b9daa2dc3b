import { describe, expect, it } from "vitest";
import { emptyUsage, type AgentMessage } from "../../src/protocol/messages.js";
import { compactionSummaryMessage } from "../../src/session/types.js";
import { formatAge, wrapText } from "./format.js";
import { listWindow } from "../layout/live-plan.js";
import { sectionLines, transcriptLines } from "./transcript-lines.js";

describe("transcriptLines", () => {
  const messages: AgentMessage[] = [
    compactionSummaryMessage("old"),
    { role: "user", content: "find the cache" },
    { role: "assistant", content: [{ type: "text", text: "Searching." }, { type: "toolCall", id: "g", name: "grep", arguments: { pattern: "cache" } }], stopReason: "tool_use", usage: emptyUsage() },
    { role: "toolResult", results: [{ toolCallId: "g", toolName: "grep", content: "a\nb\nc\nd\ne", isError: false }] },
    { role: "assistant", content: [{ type: "toolCall", id: "r", name: "read", arguments: { path: "x" } }], stopReason: "tool_use", usage: emptyUsage() },
    { role: "toolResult", results: [{ toolCallId: "r", toolName: "read", content: "ENOENT: x", isError: true }] },
  ];

  it("shows prompts, text, tool calls and the first lines of each result, toned", () => {
    const lines = transcriptLines(messages, 60);
    const text = lines.map((l) => l.text);
    expect(text).toContain("✂ (earlier conversation summarised by a context compaction)");
    expect(lines.find((l) => l.text === "› find the cache")?.tone).toBe("user");
    expect(text).toContain("Searching.");
    expect(lines.find((l) => l.text.startsWith("⏺ grep"))).toEqual({ text: '⏺ grep pattern="cache"', tone: "tool" });
    expect(text).toContain("  ⎿ a");
    expect(text).toContain("    c");
    expect(text).not.toContain("    d");
    expect(text).toContain("    … +2 lines");
    expect(lines.find((l) => l.text.includes("ENOENT"))?.tone).toBe("error");
  });

  it("puts each tool call's result right under the call, also when one message made several calls", () => {
    const calls: AgentMessage[] = [
      { role: "user", content: "look" },
      {
        role: "assistant",
        content: [
          { type: "toolCall", id: "g", name: "grep", arguments: { pattern: "login" } },
          { type: "toolCall", id: "f", name: "find", arguments: { pattern: "*login*" } },
        ],
        stopReason: "tool_use",
        usage: emptyUsage(),
      },
      {
        role: "toolResult",
        results: [
          { toolCallId: "g", toolName: "grep", content: "GREP-HIT", isError: false },
          { toolCallId: "f", toolName: "find", content: "FIND-HIT", isError: false },
        ],
      },
    ];
    const text = transcriptLines(calls, 60).map((l) => l.text).filter((t) => t.startsWith("⏺") || t.startsWith("  ⎿"));
    expect(text).toEqual(['⏺ grep pattern="login"', "  ⎿ GREP-HIT", '⏺ find pattern="*login*"', "  ⎿ FIND-HIT"]);
  });

  it("wraps long text to the width, continuing under the marker", () => {
    const lines = transcriptLines([{ role: "user", content: "word ".repeat(30).trim() }], 30);
    expect(lines.slice(1).every((l) => l.text.length <= 30)).toBe(true);
    expect(lines[1]!.text.startsWith("› word")).toBe(true);
    expect(lines[2]!.text.startsWith("  word")).toBe(true);
    expect(sectionLines("── result ──", "R1\nR2", 40)).toEqual([{ text: "" }, { text: "── result ──", tone: "heading" }, { text: "R1" }, { text: "R2" }]);
  });
});

describe("formatters for lists", () => {
  it("formats ages coarsely", () => {
    expect([0, 59_000, 180_000, 5 * 3_600_000, 50 * 3_600_000].map(formatAge)).toEqual(["0s", "59s", "3m", "5h", "2d"]);
  });
  it("wraps at spaces when possible, else hard", () => {
    expect(wrapText("aaaa bbbb cccc", 9)).toEqual(["aaaa bbbb", "cccc"]);
    expect(wrapText("x".repeat(20), 8)).toEqual(["xxxxxxxx", "xxxxxxxx", "xxxx"]);
    expect(wrapText("a\n\nb", 10)).toEqual(["a", "", "b"]);
  });
  it("keeps the selected row of a long list in the window", () => {
    expect(listWindow(0, 3, 5)).toBe(0);
    expect(listWindow(9, 20, 5)).toBe(7);
    expect(listWindow(19, 20, 5)).toBe(15);
  });
});
