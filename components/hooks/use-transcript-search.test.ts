import { describe, expect, it } from "vitest";
import { itemCopyText } from "../state/copy-answer.js";
import type { ChildView, TranscriptItem } from "../state/transcript-types.js";
import { itemText, searchItems } from "./use-transcript-search.js";

const items: TranscriptItem[] = [
  { kind: "header", id: "h", done: true, cwd: "/work/shop", model: "m", provider: "p", notices: ["Skipped profile Reviewer"] },
  { kind: "user", id: "u", done: true, text: "Find the Cart bug" },
  { kind: "thinking", id: "t", done: true, chars: 20, text: "the cart total looks off" },
  { kind: "tool", id: "c1", done: true, name: "grep", args: { pattern: "totalPrice" }, status: "ok", result: "src/cart.ts:12: totalPrice" },
  { kind: "tool", id: "c2", done: true, name: "task", args: { prompt: "look" }, status: "ok", child: { report: "the child found rounding" } as Partial<ChildView> as ChildView },
  { kind: "assistant", id: "a", done: true, text: "The cart rounds twice." },
  { kind: "info", id: "i", done: true, text: "Copied the last answer", tone: "dim" },
];

describe("transcript search", () => {
  it("finds each kind of item by its own text, case-insensitively, newest first", () => {
    expect(searchItems(items, "CART")).toEqual([5, 3, 2, 1]);
    expect(searchItems(items, "reviewer")).toEqual([0]);
    expect(searchItems(items, "totalprice")).toEqual([3]); // the call's arguments and result
    expect(searchItems(items, "rounding")).toEqual([4]); // a child's report
    expect(searchItems(items, "copied")).toEqual([6]);
    expect(searchItems(items, "")).toEqual([]);
  });

  it("searches the same text Ctrl-Y copies for every item but a tool call, whose name, arguments and result count too", () => {
    for (const item of items.filter((i) => i.kind !== "tool")) expect(itemText(item)).toBe(itemCopyText(item));
    expect(itemText(items[3]!)).toBe('grep {"pattern":"totalPrice"}  src/cart.ts:12: totalPrice');
  });
});
