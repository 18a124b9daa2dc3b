import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { codePointCut, readClippedLines } from "../../src/tools/clipped-lines.js";
import { readTool, READ_MAX_LINE_CHARS } from "../../src/tools/read.js";
import { makeCtx, tempDir, writeTree } from "./context.js";

/** Writes `mb` MiB of "a" without a newline, then `tail`. */
function writeOneLine(path: string, mb: number, tail: string): void {
  const fd = openSync(path, "w");
  const block = Buffer.alloc(1024 * 1024, "a");
  for (let i = 0; i < mb; i++) writeSync(fd, block);
  writeSync(fd, tail);
  closeSync(fd);
}

describe("read: huge inputs are clipped, never fatal", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("a 600 MB one-line file is read clipped (V8 cannot even hold that line as a string)", async () => {
    const path = join(dir, "one-line.txt");
    writeOneLine(path, 600, "\nsecond line\n");
    const r = await readTool.execute({ path: "one-line.txt" }, makeCtx(dir));
    expect(r.isError).toBe(false);
    const [first, second] = r.output.split("\n");
    expect(first).toBe(`     1\t${"a".repeat(READ_MAX_LINE_CHARS)}… [line truncated, ${600 * 1024 * 1024 - READ_MAX_LINE_CHARS} more chars]`);
    expect(second).toBe("     2\tsecond line");
    const next = await readTool.execute({ path: "one-line.txt", offset: 2 }, makeCtx(dir));
    expect(next.output).toBe("     2\tsecond line");
  }, 120_000);

  it("a window far into a file keeps only its lines; CRLF split across chunks still ends one line", async () => {
    // 256 KiB chunks: put "\r" as the last byte of the first chunk and "\n" as the first of the next.
    const first = "x".repeat(256 * 1024 - 1);
    writeTree(dir, { "crlf.txt": `${first}\r\nB\r\nC\n` });
    const r = await readClippedLines(join(dir, "crlf.txt"), { start: 2, limit: 5, maxLineChars: 10, maxChars: 1000, lineOverhead: 8 });
    expect(r.totalLines).toBe(3);
    expect(r.lines).toEqual([
      { number: 2, text: "B", clippedChars: 0 },
      { number: 3, text: "C", clippedChars: 0 },
    ]);
  });

  it("a lone \\r stays in the line; a last line without a newline counts", async () => {
    writeTree(dir, { "cr.txt": "a\rb\nlast" });
    const r = await readClippedLines(join(dir, "cr.txt"), { start: 1, limit: 5, maxLineChars: 10, maxChars: 1000, lineOverhead: 8 });
    expect(r.lines.map((l) => l.text)).toEqual(["a\rb", "last"]);
    expect(r.totalLines).toBe(2);
  });

  it("clips on a code-point boundary: an emoji at the cut is kept whole or dropped whole", async () => {
    writeTree(dir, { "emoji.txt": `${"a".repeat(9)}😀tail\n` });
    const r = await readClippedLines(join(dir, "emoji.txt"), { start: 1, limit: 5, maxLineChars: 10, maxChars: 1000, lineOverhead: 8 });
    expect(r.lines[0]!.text).toBe("a".repeat(9));
    expect(r.lines[0]!.clippedChars).toBe(2 + 4);
    expect(codePointCut("ab😀", 3)).toBe(2);
    expect(codePointCut("ab😀", 4)).toBe(4);
  });

  it("stops keeping lines at the character cap and says where to continue", async () => {
    writeTree(dir, { "wide.txt": Array.from({ length: 200 }, (_, i) => `${i + 1} ${"w".repeat(1000)}`).join("\n") + "\n" });
    const r = await readTool.execute({ path: "wide.txt" }, makeCtx(dir));
    expect(r.output.length).toBeLessThan(101_000);
    expect(r.output).toMatch(/\[output capped at 97\.7 KB; showing lines 1-\d+ of 200; \d+ more lines — use offset=\d+ to continue\]$/);
  });
});
