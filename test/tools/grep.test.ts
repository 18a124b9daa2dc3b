import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGrepTool, grepTool } from "../../src/tools/grep.js";
import { abortedSignal, makeCtx, tempDir, writeTree } from "./context.js";

describe("grep tool", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("prints file:line: text for regex matches, relative to cwd", async () => {
    writeTree(dir, {
      "src/a.ts": "const x = 1;\nfunction loadUser() {}\n",
      "src/b.ts": "// nothing\nexport function loadAll() {}\n",
    });
    const r = await grepTool.execute({ pattern: "function\\s+load\\w+" }, makeCtx(dir));
    expect(r.isError).toBe(false);
    expect(r.output).toBe("src/a.ts:2: function loadUser() {}\nsrc/b.ts:2: export function loadAll() {}");
  });

  it("searches a text file holding a latin1 byte (not UTF-8) instead of reporting no matches; files with a NUL stay skipped as binary", async () => {
    writeTree(dir, {
      "notes.txt": Buffer.concat([Buffer.from("caf"), Buffer.from([0xe9]), Buffer.from(" au lait\nneedle here\n")]),
      "utf8.txt": "caf\u00e9 cr\u00e8me\n",
      "blob.bin": Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01]),
    });
    const r = await grepTool.execute({ pattern: "needle" }, makeCtx(dir));
    expect(r.output).toBe("notes.txt:2: needle here");
    // A Unicode pattern finds the latin1 spelling (and the UTF-8 one) too.
    const accent = await grepTool.execute({ pattern: "caf\u00e9" }, makeCtx(dir));
    expect(accent.output).toBe("notes.txt:1: caf\u00e9 au lait\nutf8.txt:1: caf\u00e9 cr\u00e8me");
  });

  it("output: count lists matches per file, past the line cap, with a total", async () => {
    writeTree(dir, { "a.ts": "x\nx\nx\n", "b/c.ts": "x\n", "d.ts": "none\n" });
    const small = createGrepTool({ maxMatches: 2 });
    const r = await small.execute({ pattern: "x", output: "count" }, makeCtx(dir));
    expect(r.isError).toBe(false);
    expect(r.output).toBe("a.ts: 3\nb/c.ts: 1\n\n[4 matches in 2 file(s)]");
    // The same search as lines stops at the cap.
    expect((await small.execute({ pattern: "x" }, makeCtx(dir))).output).toContain("[showing the first 2 matches");
  });

  it("does not search a symlinked file pointing outside the searched directory (a repository's link to ~/.ssh), and says so; links inside are searched", async () => {
    const outside = mkdtempSync(join(tmpdir(), "ink-grep-outside-"));
    try {
      writeFileSync(join(outside, "id_key"), "TOKEN=sk-outside-secret\n");
      writeTree(dir, { "src/a.txt": "TOKEN=inside\n" });
      symlinkSync(join(outside, "id_key"), join(dir, "notes.txt"));
      symlinkSync(join(dir, "src", "a.txt"), join(dir, "alias.txt"));
      const r = await grepTool.execute({ pattern: "TOKEN" }, makeCtx(dir));
      expect(r.output).not.toContain("sk-outside-secret");
      expect(r.output).toContain("alias.txt:1: TOKEN=inside");
      expect(r.output).toContain("src/a.txt:1: TOKEN=inside");
      expect(r.output).toMatch(/\[not searched: 1 symlinked file\(s\) pointing outside the working directory: notes\.txt → .*id_key — read one by its path if needed \(that asks\)\]/);
      const src = await grepTool.execute({ pattern: "TOKEN", path: "src" }, makeCtx(dir));
      expect(src.output).toBe("src/a.txt:1: TOKEN=inside");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("supports ignoreCase", async () => {
    writeTree(dir, { "a.txt": "Hello\nhello\nHELLO\nbye\n" });
    const sensitive = await grepTool.execute({ pattern: "hello" }, makeCtx(dir));
    expect(sensitive.output).toBe("a.txt:2: hello");
    const insensitive = await grepTool.execute({ pattern: "hello", ignoreCase: true }, makeCtx(dir));
    expect(insensitive.output.split("\n")).toEqual(["a.txt:1: Hello", "a.txt:2: hello", "a.txt:3: HELLO"]);
  });

  it("filters file names with glob", async () => {
    writeTree(dir, {
      "a.ts": "needle\n",
      "a.js": "needle\n",
      "lib/c.test.ts": "needle\n",
      "lib/c.ts": "needle\n",
    });
    const ts = await grepTool.execute({ pattern: "needle", glob: "*.ts" }, makeCtx(dir));
    expect(ts.output.split("\n")).toEqual(["a.ts:1: needle", "lib/c.test.ts:1: needle", "lib/c.ts:1: needle"]);
    const tests = await grepTool.execute({ pattern: "needle", glob: "**/*.test.ts" }, makeCtx(dir));
    expect(tests.output).toBe("lib/c.test.ts:1: needle");
  });

  it("searches under path, or a single file", async () => {
    writeTree(dir, { "a/x.txt": "hit\n", "b/y.txt": "hit\n" });
    const under = await grepTool.execute({ pattern: "hit", path: "b" }, makeCtx(dir));
    expect(under.output).toBe("b/y.txt:1: hit");
    const file = await grepTool.execute({ pattern: "hit", path: "a/x.txt" }, makeCtx(dir));
    expect(file.output).toBe("a/x.txt:1: hit");
  });

  it("respects .gitignore in a real git repository, skips .git, node_modules and binaries", async () => {
    execFileSync("git", ["init", "-q"], { cwd: dir });
    writeTree(dir, {
      ".gitignore": "# build output\ndist/\n*.log\n/secret.txt\n!keep.log\n",
      "src/app.ts": "token here\n",
      "src/secret.txt": "token in nested file with same name\n",
      "secret.txt": "token at root\n",
      "dist/out.js": "token\n",
      "debug.log": "token\n",
      "keep.log": "token kept\n",
      "node_modules/pkg/index.js": "token\n",
      "image.bin": Buffer.concat([Buffer.from("token"), Buffer.from([0, 1, 2])]),
      "sub/.gitignore": "generated.ts\n",
      "sub/generated.ts": "token\n",
      "sub/real.ts": "token\n",
    });
    execFileSync("git", ["add", "."], { cwd: dir });
    const r = await grepTool.execute({ pattern: "token" }, makeCtx(dir));
    expect(r.output.split("\n").sort()).toEqual([
      "keep.log:1: token kept",
      "src/app.ts:1: token here",
      "src/secret.txt:1: token in nested file with same name",
      "sub/real.ts:1: token",
    ]);
    // git agrees about which files are ignored
    const ignored = execFileSync("git", ["status", "--ignored", "--porcelain"], { cwd: dir, encoding: "utf8" });
    expect(ignored).toContain("!! debug.log");
    expect(ignored).toContain("!! sub/generated.ts");
  });

  it("applies the repository's .gitignore when searching a subdirectory", async () => {
    execFileSync("git", ["init", "-q"], { cwd: dir });
    writeTree(dir, { ".gitignore": "*.gen.ts\n", "pkg/a.ts": "hit\n", "pkg/a.gen.ts": "hit\n" });
    const r = await grepTool.execute({ pattern: "hit", path: "pkg" }, makeCtx(dir));
    expect(r.output).toBe("pkg/a.ts:1: hit");
  });

  it("reports an invalid regex clearly", async () => {
    const r = await grepTool.execute({ pattern: "foo(" }, makeCtx(dir));
    expect(r.isError).toBe(true);
    expect(r.output).toContain('Invalid regex "foo("');
  });

  it("says when nothing matches, and when the path is missing", async () => {
    writeTree(dir, { "a.txt": "abc\n" });
    const none = await grepTool.execute({ pattern: "zzz" }, makeCtx(dir));
    expect(none).toMatchObject({ isError: false });
    expect(none.output).toContain("No matches for /zzz/");
    const missing = await grepTool.execute({ pattern: "a", path: "nope" }, makeCtx(dir));
    expect(missing.isError).toBe(true);
    expect(missing.output).toContain("Path not found: nope");
  });

  it("caps the number of matches with a note", async () => {
    writeTree(dir, { "many.txt": Array.from({ length: 10 }, (_, i) => `m${i}`).join("\n") });
    const r = await createGrepTool({ maxMatches: 3 }).execute({ pattern: "^m" }, makeCtx(dir));
    const lines = r.output.split("\n");
    expect(lines.slice(0, 3)).toEqual(["many.txt:1: m0", "many.txt:2: m1", "many.txt:3: m2"]);
    expect(r.output).toContain("showing the first 3 matches");
    expect(r.output).not.toContain("m3");
  });

  it("clips long matching lines around the match", async () => {
    writeTree(dir, { "min.js": `${"a".repeat(1000)}NEEDLE${"b".repeat(1000)}\n` });
    const r = await createGrepTool({ maxLineChars: 100 }).execute({ pattern: "NEEDLE" }, makeCtx(dir));
    expect(r.output).toContain("NEEDLE");
    expect(r.output.length).toBeLessThan(200);
  });

  it("returns 'aborted' for an aborted signal", async () => {
    writeTree(dir, { "a.txt": "x\n" });
    const r = await grepTool.execute({ pattern: "x" }, makeCtx(dir, abortedSignal()));
    expect(r).toEqual({ output: "aborted", isError: true });
  });

  it("stops with an aborted error when the signal aborts mid-search", async () => {
    writeTree(dir, Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`d${i % 10}/f${i}.txt`, "hit\n"])));
    const c = new AbortController();
    const running = grepTool.execute({ pattern: "hit" }, makeCtx(dir, c.signal));
    setImmediate(() => c.abort());
    const r = await running;
    expect(r.isError).toBe(true);
    expect(r.output.endsWith("aborted")).toBe(true);
  });

  it("schema requires a pattern", () => {
    expect(grepTool.schema.safeParse({}).success).toBe(false);
    expect(grepTool.schema.safeParse({ pattern: "x", ignoreCase: "yes" }).success).toBe(false);
    expect(grepTool.schema.safeParse({ pattern: "x", path: join("a", "b"), glob: "*.ts", ignoreCase: true }).success).toBe(true);
  });
});
