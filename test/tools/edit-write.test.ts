import { execFileSync } from "node:child_process";
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EDIT_MAX_FILE_BYTES, editTool } from "../../src/tools/edit.js";
import { writeTool } from "../../src/tools/write.js";
import { abortedSignal, makeCtx, tempDir, writeTree } from "./context.js";

describe("edit tool", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());
  const read = (rel: string) => readFileSync(join(dir, rel), "utf8");

  it("replaces a unique occurrence and reports the changed lines", async () => {
    writeTree(dir, { "a.ts": "line1\nconst x = 1;\nline3\n" });
    const r = await editTool.execute({ path: "a.ts", oldText: "const x = 1;", newText: "const x = 2;\nconst y = 3;" }, makeCtx(dir));
    expect(r.isError).toBe(false);
    expect(read("a.ts")).toBe("line1\nconst x = 2;\nconst y = 3;\nline3\n");
    expect(r.output).toContain("Edited a.ts: replaced line 2 (1 line) with 2 lines");
    expect(r.output).toContain("-    2 const x = 1;");
    expect(r.output).toContain("+    2 const x = 2;");
    expect(r.output).toContain("+    3 const y = 3;");
  });

  it("treats $ patterns in newText literally", async () => {
    writeTree(dir, { "a.txt": "price\n" });
    await editTool.execute({ path: "a.txt", oldText: "price", newText: "$& $1 $$" }, makeCtx(dir));
    expect(read("a.txt")).toBe("$& $1 $$\n");
  });

  it("fails clearly when oldText is absent, leaving the file alone", async () => {
    writeTree(dir, { "a.txt": "hello world\n" });
    const r = await editTool.execute({ path: "a.txt", oldText: "goodbye", newText: "x" }, makeCtx(dir));
    expect(r.isError).toBe(true);
    expect(r.output).toContain("not found in a.txt; read the file and copy the exact text");
    expect(read("a.txt")).toBe("hello world\n");
  });

  it("hints when only whitespace differs", async () => {
    writeTree(dir, { "a.txt": "if (x) {\n    go();\n}\n" });
    const r = await editTool.execute({ path: "a.txt", oldText: "if (x) {\n  go();", newText: "y" }, makeCtx(dir));
    expect(r.isError).toBe(true);
    expect(r.output).toContain("whitespace");
  });

  it("fails clearly when oldText is ambiguous", async () => {
    writeTree(dir, { "a.txt": "x = 1\ny\nx = 1\n" });
    const r = await editTool.execute({ path: "a.txt", oldText: "x = 1", newText: "x = 2" }, makeCtx(dir));
    expect(r.isError).toBe(true);
    expect(r.output).toContain("occurs 2 times in a.txt (at lines 1, 3); include more surrounding lines to make it unique");
    expect(read("a.txt")).toBe("x = 1\ny\nx = 1\n");
  });

  it("matches LF oldText against a CRLF file and keeps CRLF endings", async () => {
    writeTree(dir, { "w.txt": "a\r\nb\r\nc\r\n" });
    const r = await editTool.execute({ path: "w.txt", oldText: "a\nb", newText: "A\nB" }, makeCtx(dir));
    expect(r.isError).toBe(false);
    expect(read("w.txt")).toBe("A\r\nB\r\nc\r\n");
  });

  it("rejects empty or identical oldText, missing files and binaries", async () => {
    writeTree(dir, { "a.txt": "abc", "b.bin": Buffer.from([1, 0, 2]) });
    expect((await editTool.execute({ path: "a.txt", oldText: "", newText: "x" }, makeCtx(dir))).output).toContain("oldText is empty");
    expect((await editTool.execute({ path: "a.txt", oldText: "a", newText: "a" }, makeCtx(dir))).output).toContain("identical");
    const missing = await editTool.execute({ path: "none.txt", oldText: "a", newText: "b" }, makeCtx(dir));
    expect(missing).toMatchObject({ isError: true });
    expect(missing.output).toContain("File not found: none.txt; use write");
    const bin = await editTool.execute({ path: "b.bin", oldText: "a", newText: "b" }, makeCtx(dir));
    expect(bin.isError).toBe(true);
    expect(bin.output).toContain("binary");
  });

  it("refuses a file over the size cap naming it, its size and what to use instead (never loads it)", async () => {
    const path = join(dir, "huge.log");
    writeFileSync(path, "");
    truncateSync(path, EDIT_MAX_FILE_BYTES + 1); // sparse: no real bytes written
    const r = await editTool.execute({ path: "huge.log", oldText: "a", newText: "b" }, makeCtx(dir));
    expect(r.isError).toBe(true);
    expect(r.output).toBe(`huge.log is 32.0 MB; edit changes files up to 32 MB — for a file this large use bash (e.g. sed -i) or write a smaller file.`);
  });

  it("refuses a FIFO at once instead of waiting for a writer", async () => {
    execFileSync("mkfifo", [join(dir, "pipe")]);
    const r = await editTool.execute({ path: "pipe", oldText: "a", newText: "b" }, makeCtx(dir));
    expect(r.isError).toBe(true);
    expect(r.output).toBe("pipe is not a regular file (a FIFO, socket or device); edit only changes text files.");
  });

  it("returns 'aborted' without touching the file", async () => {
    writeTree(dir, { "a.txt": "abc" });
    const r = await editTool.execute({ path: "a.txt", oldText: "abc", newText: "x" }, makeCtx(dir, abortedSignal()));
    expect(r).toEqual({ output: "aborted", isError: true });
    expect(read("a.txt")).toBe("abc");
  });

  it("schema requires path, oldText and newText", () => {
    expect(editTool.schema.safeParse({ path: "a", oldText: "x" }).success).toBe(false);
    expect(editTool.schema.safeParse({ path: "a", oldText: "x", newText: "y" }).success).toBe(true);
    expect(editTool.readOnly || editTool.concurrent).toBe(false);
  });
});

describe("write tool", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("creates a file and its parent directories", async () => {
    const r = await writeTool.execute({ path: "deep/er/new.txt", content: "one\ntwo\n" }, makeCtx(dir));
    expect(r.isError).toBe(false);
    expect(readFileSync(join(dir, "deep/er/new.txt"), "utf8")).toBe("one\ntwo\n");
    expect(r.output).toBe("Created deep/er/new.txt (2 lines, 8 B).");
  });

  it("overwrites an existing file and says so", async () => {
    writeFileSync(join(dir, "f.txt"), "old content");
    const r = await writeTool.execute({ path: join(dir, "f.txt"), content: "new" }, makeCtx("/"));
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("new");
    expect(r.output).toContain("Overwrote");
    expect(r.output).toContain("1 line, 3 B");
  });

  it("fails clearly for a directory path or a file in the way", async () => {
    mkdirSync(join(dir, "d"));
    writeFileSync(join(dir, "file"), "");
    const d = await writeTool.execute({ path: "d", content: "x" }, makeCtx(dir));
    expect(d.isError).toBe(true);
    expect(d.output).toContain("d is a directory");
    const blocked = await writeTool.execute({ path: "file/x.txt", content: "x" }, makeCtx(dir));
    expect(blocked.isError).toBe(true);
    expect(blocked.output).toContain("Cannot write file/x.txt");
  });

  it("returns 'aborted' without writing", async () => {
    const r = await writeTool.execute({ path: "a.txt", content: "x" }, makeCtx(dir, abortedSignal()));
    expect(r).toEqual({ output: "aborted", isError: true });
    expect(() => readFileSync(join(dir, "a.txt"))).toThrow();
  });

  it("schema requires path and content", () => {
    expect(writeTool.schema.safeParse({ path: "a" }).success).toBe(false);
    expect(writeTool.schema.safeParse({ path: "a", content: "" }).success).toBe(true);
  });
});

describe("edit and write respect the file (as any user, root included)", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => {
    try {
      chmodSync(join(dir, "ro.txt"), 0o644);
    } catch {
      // not created by this test
    }
    cleanup();
  });

  it("keep the mode and every hard link", async () => {
    writeTree(dir, { "run.sh": "echo one\n" });
    chmodSync(join(dir, "run.sh"), 0o750);
    linkSync(join(dir, "run.sh"), join(dir, "alias.sh"));
    expect((await editTool.execute({ path: "run.sh", oldText: "one", newText: "two" }, makeCtx(dir))).isError).toBe(false);
    expect(statSync(join(dir, "run.sh")).mode & 0o777).toBe(0o750);
    expect(readFileSync(join(dir, "alias.sh"), "utf8")).toBe("echo two\n");
    expect(statSync(join(dir, "run.sh")).ino).toBe(statSync(join(dir, "alias.sh")).ino);
    expect((await writeTool.execute({ path: "alias.sh", content: "echo three\n" }, makeCtx(dir))).isError).toBe(false);
    expect(readFileSync(join(dir, "run.sh"), "utf8")).toBe("echo three\n");
    expect(statSync(join(dir, "alias.sh")).mode & 0o777).toBe(0o750);
  });

  it("refuse a read-only file with the reason and leave it alone", async () => {
    writeTree(dir, { "ro.txt": "keep\n" });
    chmodSync(join(dir, "ro.txt"), 0o444);
    const edited = await editTool.execute({ path: "ro.txt", oldText: "keep", newText: "lost" }, makeCtx(dir));
    expect(edited).toMatchObject({ isError: true, output: expect.stringMatching(/ro\.txt is read-only \(mode 444\).*change its permissions first/) });
    const written = await writeTool.execute({ path: "ro.txt", content: "lost\n" }, makeCtx(dir));
    expect(written).toMatchObject({ isError: true, output: expect.stringContaining("read-only") });
    expect(readFileSync(join(dir, "ro.txt"), "utf8")).toBe("keep\n");
    expect(statSync(join(dir, "ro.txt")).mode & 0o777).toBe(0o444);
  });
});
