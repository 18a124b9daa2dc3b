import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTool, READ_DEFAULT_LIMIT, READ_MAX_LINE_CHARS } from "../../src/tools/read.js";
import { abortedSignal, makeCtx, tempDir, writeTree } from "./context.js";

describe("read tool", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

  it("numbers lines like cat -n", async () => {
    writeTree(dir, { "a.txt": "alpha\nbeta\n" });
    const r = await readTool.execute({ path: "a.txt" }, makeCtx(dir));
    expect(r.isError).toBe(false);
    expect(r.output).toBe("     1\talpha\n     2\tbeta");
  });

  it("accepts absolute paths", async () => {
    writeTree(dir, { "sub/a.txt": "x\n" });
    const r = await readTool.execute({ path: `${dir}/sub/a.txt` }, makeCtx("/"));
    expect(r.output).toBe("     1\tx");
  });

  it("pages with offset/limit and says how to continue", async () => {
    writeTree(dir, { "n.txt": lines(10) });
    const r = await readTool.execute({ path: "n.txt", offset: 3, limit: 2 }, makeCtx(dir));
    expect(r.isError).toBe(false);
    expect(r.output.split("\n").slice(0, 2)).toEqual(["     3\tline 3", "     4\tline 4"]);
    expect(r.output).toContain("use offset=5 to continue");
    expect(r.output).toContain("6 more lines");
    const last = await readTool.execute({ path: "n.txt", offset: 9 }, makeCtx(dir));
    expect(last.output).toBe("     9\tline 9\n    10\tline 10");
  });

  it("applies a default limit", async () => {
    writeTree(dir, { "big.txt": lines(READ_DEFAULT_LIMIT + 5) });
    const r = await readTool.execute({ path: "big.txt" }, makeCtx(dir));
    expect(r.output).toContain(`${READ_DEFAULT_LIMIT}\tline ${READ_DEFAULT_LIMIT}\n`);
    expect(r.output).not.toContain(`\tline ${READ_DEFAULT_LIMIT + 1}`);
    expect(r.output).toContain(`use offset=${READ_DEFAULT_LIMIT + 1} to continue`);
  });

  it("clips very long lines", async () => {
    writeTree(dir, { "long.txt": "x".repeat(READ_MAX_LINE_CHARS + 50) + "\n" });
    const r = await readTool.execute({ path: "long.txt" }, makeCtx(dir));
    expect(r.output).toContain("[line truncated, 50 more chars]");
    expect(r.output.length).toBeLessThan(READ_MAX_LINE_CHARS + 100);
  });

  it("refuses binary files", async () => {
    writeTree(dir, { "img.bin": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]) });
    const r = await readTool.execute({ path: "img.bin" }, makeCtx(dir));
    expect(r.isError).toBe(true);
    expect(r.output).toMatch(/img\.bin looks like a binary file/);
  });

  it("refuses invalid UTF-8 even without NUL bytes", async () => {
    writeTree(dir, { "latin.bin": Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x0a]) });
    const r = await readTool.execute({ path: "latin.bin" }, makeCtx(dir));
    expect(r.isError).toBe(true);
    expect(r.output).toContain("binary");
  });

  it("reads UTF-8 text with multibyte characters", async () => {
    writeTree(dir, { "u.txt": "héllo — 世界\n" });
    const r = await readTool.execute({ path: "u.txt" }, makeCtx(dir));
    expect(r.output).toBe("     1\théllo — 世界");
  });

  it("reports a missing file clearly", async () => {
    const r = await readTool.execute({ path: "nope.txt" }, makeCtx(dir));
    expect(r.isError).toBe(true);
    expect(r.output).toContain("File not found: nope.txt");
  });

  it("reports a directory path clearly", async () => {
    writeTree(dir, { "d/x.txt": "x" });
    const r = await readTool.execute({ path: "d" }, makeCtx(dir));
    expect(r.isError).toBe(true);
    expect(r.output).toContain("d is a directory");
    expect(r.output).toContain("ls");
  });

  it("reports an offset past the end", async () => {
    writeTree(dir, { "s.txt": "a\nb\n" });
    const r = await readTool.execute({ path: "s.txt", offset: 5 }, makeCtx(dir));
    expect(r.isError).toBe(true);
    expect(r.output).toContain("offset 5 is past the end of s.txt, which has 2 lines");
  });

  it("handles empty files and CRLF line endings", async () => {
    writeTree(dir, { "e.txt": "", "crlf.txt": "a\r\nb\r\n" });
    const empty = await readTool.execute({ path: "e.txt" }, makeCtx(dir));
    expect(empty.isError).toBe(false);
    expect(empty.output).toContain("empty");
    const crlf = await readTool.execute({ path: "crlf.txt" }, makeCtx(dir));
    expect(crlf.output).toBe("     1\ta\n     2\tb");
  });

  it("returns 'aborted' for an aborted signal", async () => {
    writeTree(dir, { "a.txt": "a\n" });
    const r = await readTool.execute({ path: "a.txt" }, makeCtx(dir, abortedSignal()));
    expect(r).toEqual({ output: "aborted", isError: true });
  });

  it("stops with 'aborted' when the signal aborts mid-read", async () => {
    writeTree(dir, { "huge.txt": "0123456789abcdef\n".repeat(400_000) });
    const c = new AbortController();
    const running = readTool.execute({ path: "huge.txt" }, makeCtx(dir, c.signal));
    setImmediate(() => c.abort());
    expect(await running).toMatchObject({ output: "aborted", isError: true });
  });

  it("schema requires a path and positive integers", () => {
    expect(readTool.schema.safeParse({}).success).toBe(false);
    expect(readTool.schema.safeParse({ path: "a", limit: 0 }).success).toBe(false);
    expect(readTool.schema.safeParse({ path: "a", offset: 1.5 }).success).toBe(false);
    expect(readTool.schema.safeParse({ path: "a", offset: 3, limit: 10 }).success).toBe(true);
  });
});
