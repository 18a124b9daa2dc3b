import { describe, expect, it } from "vitest";
import { rowCount, tailToRows, wrapRows } from "./measure.js";

describe("measure", () => {
  it("counts wrapped rows as Ink wraps them (hard wrap, blank lines count)", () => {
    expect(rowCount("a".repeat(150), 80)).toBe(2);
    expect(rowCount("one\n\ntwo", 80)).toBe(3);
    expect(rowCount("x".repeat(200), 80)).toBe(3);
    expect(wrapRows("hello world foo", 11)).toEqual(["hello world", " foo"]);
  });

  it("re-measures at a new width", () => {
    const text = "word ".repeat(40).trim();
    expect(rowCount(text, 200)).toBe(1);
    expect(rowCount(text, 40)).toBeGreaterThan(4);
  });

  it("keeps the end of a long paragraph within the row budget", () => {
    const para = Array.from({ length: 300 }, (_, i) => `w${i}`).join(" ");
    const tail = tailToRows(para, 40, 3);
    expect(rowCount(tail, 40)).toBeLessThanOrEqual(3);
    expect(tail.endsWith("w299")).toBe(true);
    expect(tail).not.toContain("w0 ");
  });

  it("keeps whole lines when they fit", () => {
    expect(tailToRows("a\nb\nc\nd", 80, 2)).toBe("c\nd");
  });
});
