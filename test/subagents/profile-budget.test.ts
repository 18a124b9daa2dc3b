/** Budget fields of an agent profile's front matter (issue #25 item 2): parsed, or refused naming the fix. */
import { describe, expect, it } from "vitest";
import { parseProfile } from "../../src/subagents/profiles/profile-parse.js";
import { childLimits, formatAmount, parseCostBudget, parseTokenBudget } from "../../src/subagents/runtime/budget.js";

const parse = (front: string) => parseProfile(`---\n${front}\n---\nBody.`, { path: "/agents/a.md", source: "project", hash: "h" });

describe("profile budgets", () => {
  it.each([
    ["50000", 50_000],
    ['"50k"', 50_000],
    ['"1.5m"', 1_500_000],
  ])("maxTokens: %s", (value, tokens) => {
    const result = parse(`name: a\ndescription: b\nmaxTokens: ${value}`);
    if (!result.ok) throw new Error(result.reason);
    expect(result.profile.maxTokens).toBe(tokens);
  });

  it.each([
    ["2", 2],
    ['"$0.50"', 0.5],
  ])("maxCostUsd: %s", (value, usd) => {
    const result = parse(`name: a\ndescription: b\nmaxCostUsd: ${value}`);
    if (!result.ok) throw new Error(result.reason);
    expect(result.profile.maxCostUsd).toBe(usd);
  });

  it.each([
    ["maxTokens: -5", "`maxTokens` -5 must be more than 0"],
    ["maxTokens: lots", '`maxTokens` "lots" is not a number of tokens; write a whole number of tokens above 0 such as 50000'],
    ["maxTokens: 0", "`maxTokens` 0 must be more than 0"],
    ["maxCostUsd: -1", "`maxCostUsd` -1 must be more than 0; write an amount in US dollars above 0 such as 2"],
    ["maxCostUsd: cheap", '`maxCostUsd` "cheap" is not an amount'],
  ])("refuses %s with a message naming the fix", (line, message) => {
    const result = parse(`name: a\ndescription: b\n${line}`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(message);
  });

  it("a misspelt key is a warning that suggests the budget field (the file still loads, as Claude Code's do)", () => {
    const result = parse("name: a\ndescription: b\nmaxtoken: 5");
    if (!result.ok) throw new Error(result.reason);
    expect(result.profile.maxTokens).toBeUndefined();
    expect(result.profile.warnings?.join("\n")).toContain('"maxtoken" (did you mean "maxTokens"?)');
  });

  it("parsers and formatting", () => {
    expect(parseTokenBudget(1.5)).toMatchObject({ ok: false });
    expect(parseCostBudget("$2")).toEqual({ ok: true, value: 2 });
    expect(formatAmount("tokens", 50_000)).toBe("50k tokens");
    expect(formatAmount("cost", 2)).toBe("$2.00");
  });

  it("a call's limits win over the profile's; a resumed child gets its saved budget afresh", () => {
    expect(childLimits({ maxTokens: 10 }, { maxTokens: 5, maxCostUsd: 1 }, undefined)).toEqual({ maxTokens: 10, maxCostUsd: 1 });
    expect(childLimits({}, { maxTokens: 5 }, { maxCostUsd: 2 })).toEqual({ maxCostUsd: 2 });
    expect(childLimits({}, undefined, undefined)).toEqual({});
  });
});
