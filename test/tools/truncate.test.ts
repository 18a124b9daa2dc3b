import { describe, expect, it } from "vitest";
import { clipLine, TailBuffer } from "../../src/tools/truncate.js";

describe("TailBuffer", () => {
  it("keeps everything when under the limits", () => {
    const t = new TailBuffer(100, 10);
    t.push("a\nb");
    t.push("\nc\n");
    expect(t.finish()).toMatchObject({ text: "a\nb\nc", truncated: false, totalLines: 3, droppedLines: 0 });
  });

  it("keeps the last lines", () => {
    const t = new TailBuffer(10_000, 3);
    for (let i = 1; i <= 10; i++) t.push(`${i}\n`);
    expect(t.finish()).toMatchObject({ text: "8\n9\n10", truncated: true, totalLines: 10, droppedLines: 7 });
  });

  it("keeps the last bytes, dropping a partial first line, with bounded memory", () => {
    const t = new TailBuffer(20, 100);
    for (let i = 0; i < 1000; i++) t.push(`line-${i}\n`);
    const r = t.finish();
    expect(r.text.split("\n").every((l) => /^line-\d+$/.test(l))).toBe(true);
    expect(r.text.endsWith("line-999")).toBe(true);
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(20);
    expect(r.droppedBytes).toBe(r.totalBytes - Buffer.byteLength(r.text) - 1);
  });

  it("counts a lone newline as one kept line", () => {
    const t = new TailBuffer(10, 10);
    t.push("\n");
    expect(t.finish()).toMatchObject({ text: "", truncated: false, totalLines: 1 });
  });
});

describe("clipLine", () => {
  it("clips with a note", () => {
    expect(clipLine("abcdef", 3)).toBe("abc… [line truncated, 3 more chars]");
    expect(clipLine("abc", 3)).toBe("abc");
  });
});
