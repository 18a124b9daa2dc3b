import { describe, expect, it } from "vitest";
import { contentLines, firstLine, formatArgs, formatDuration, formatTokens, lastLines, shortId, totalTokens, truncate } from "./format.js";

describe("formatters", () => {
  it("formats token counts compactly", () => {
    expect([0, 950, 1234, 12_345, 999_999, 3_400_000].map(formatTokens)).toEqual(["0", "950", "1.2k", "12k", "1000k", "3.4M"]);
    expect(totalTokens({ input: 1, output: 2, cacheRead: 3, cacheWrite: 4 })).toBe(10);
  });
  it("formats durations", () => {
    expect([400, 2100, 65_000, 3_720_000].map(formatDuration)).toEqual(["0.4s", "2.1s", "1m05s", "1h02m"]);
  });
  it("shortens session ids to their random tail", () => {
    expect(shortId("20261202-142301-ab12cd")).toBe("ab12cd");
    expect(shortId("x")).toBe("x");
  });
  it("formats tool arguments as key=value with strings quoted and newlines folded", () => {
    expect(formatArgs({ pattern: "login", ignoreCase: true, limit: 3 })).toBe('pattern="login" ignoreCase=true limit=3');
    expect(formatArgs({ command: "ls\nwc -l" })).toBe('command="ls ⏎ wc -l"');
    expect(formatArgs({ content: "x".repeat(500) }, 40)).toHaveLength(40);
  });
  it("cuts and picks lines", () => {
    expect(truncate("abcdef", 4)).toBe("abc…");
    expect(truncate("abc", 4)).toBe("abc");
    expect(firstLine("\n  \n  first \nsecond")).toBe("first");
    expect(lastLines("a\n\nb\nc\n", 2)).toEqual(["b", "c"]);
    expect(contentLines("a\nb\n\n")).toEqual(["a", "b"]);
    expect(contentLines("")).toEqual([]);
  });
});

