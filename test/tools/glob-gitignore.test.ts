import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isIgnored, parseGitignore } from "../../src/tools/gitignore.js";
import { createGlobMatcher, globToRegExp } from "../../src/tools/glob.js";
import { walk, walkFiles } from "../../src/tools/walk.js";
import { tempDir, writeTree } from "./context.js";

describe("globToRegExp", () => {
  const cases: [string, string, boolean][] = [
    ["*.ts", "a.ts", true],
    ["*.ts", "dir/a.ts", false],
    ["**/*.ts", "a.ts", true],
    ["**/*.ts", "x/y/a.ts", true],
    ["src/**/login*", "src/login.ts", true],
    ["src/**/login*", "src/a/b/login-form.tsx", true],
    ["src/**/login*", "lib/login.ts", false],
    ["src/**", "src/a/b.ts", true],
    ["src/**", "src", false],
    ["a?c", "abc", true],
    ["a?c", "a/c", false],
    ["[ab].txt", "b.txt", true],
    ["[!ab].txt", "b.txt", false],
    ["[!ab].txt", "c.txt", true],
    ["*.{ts,tsx}", "x.tsx", true],
    ["*.{ts,tsx}", "x.js", false],
    ["{src,test}/**/*.ts", "test/a/b.ts", true],
    ["a.b", "axb", false],
    ["\\*.md", "*.md", true],
    ["\\*.md", "x.md", false],
    ["(x)+", "(x)+", true],
  ];
  it.each(cases)("%s vs %s → %s", (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });

  it("createGlobMatcher matches base names when the pattern has no slash", () => {
    const m = createGlobMatcher("*.test.ts");
    expect(m("deep/dir/a.test.ts")).toBe(true);
    expect(m("deep/dir/a.ts")).toBe(false);
    const anchored = createGlobMatcher("./src/*.ts");
    expect(anchored("src/a.ts")).toBe(true);
    expect(anchored("lib/src/a.ts")).toBe(false);
  });
});

describe("gitignore rules", () => {
  const root = "/repo";
  const ignored = (text: string, rel: string, isDir = false) =>
    isIgnored([{ base: root, rules: parseGitignore(text) }], `${root}/${rel}`, isDir);

  it("skips comments and blank lines", () => {
    expect(parseGitignore("# comment\n\n   \n*.log\n")).toHaveLength(1);
  });

  it("unanchored patterns match at any depth", () => {
    expect(ignored("*.log", "a.log")).toBe(true);
    expect(ignored("*.log", "x/y/a.log")).toBe(true);
    expect(ignored("build", "x/build", true)).toBe(true);
    expect(ignored("*.log", "a.txt")).toBe(false);
  });

  it("leading or inner slash anchors to the file's directory", () => {
    expect(ignored("/todo.txt", "todo.txt")).toBe(true);
    expect(ignored("/todo.txt", "sub/todo.txt")).toBe(false);
    expect(ignored("doc/*.md", "doc/a.md")).toBe(true);
    expect(ignored("doc/*.md", "x/doc/a.md")).toBe(false);
    expect(ignored("doc/*.md", "doc/sub/a.md")).toBe(false);
  });

  it("trailing slash matches directories only", () => {
    expect(ignored("out/", "out", true)).toBe(true);
    expect(ignored("out/", "out", false)).toBe(false);
  });

  it("negation re-includes; the last matching rule wins", () => {
    expect(ignored("*.log\n!keep.log", "keep.log")).toBe(false);
    expect(ignored("*.log\n!keep.log", "other.log")).toBe(true);
    expect(ignored("!keep.log\n*.log", "keep.log")).toBe(true);
  });

  it("supports ** forms and escapes", () => {
    expect(ignored("**/logs", "a/b/logs", true)).toBe(true);
    expect(ignored("logs/**", "logs/a/b.txt")).toBe(true);
    expect(ignored("a/**/b", "a/x/y/b")).toBe(true);
    expect(ignored("a/**/b", "a/b")).toBe(true);
    expect(ignored("\\#file", "#file")).toBe(true);
    expect(ignored("\\!important", "!important")).toBe(true);
    expect(ignored("f?o", "foo")).toBe(true);
  });

  it("deeper rule sets override shallower ones", () => {
    const sets = [
      { base: "/repo", rules: parseGitignore("*.gen.ts") },
      { base: "/repo/keep", rules: parseGitignore("!*.gen.ts") },
    ];
    expect(isIgnored(sets, "/repo/a.gen.ts", false)).toBe(true);
    expect(isIgnored(sets, "/repo/keep/a.gen.ts", false)).toBe(false);
  });
});

describe("walk / walkFiles", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  const collect = async (it: AsyncIterable<string>) => {
    const out: string[] = [];
    for await (const x of it) out.push(x);
    return out;
  };

  it("yields sorted absolute file paths, skipping .git, node_modules and ignored entries", async () => {
    writeTree(dir, {
      ".gitignore": "tmp/\n",
      "b.txt": "",
      "a/z.txt": "",
      "a/y.txt": "",
      ".git/config": "",
      "node_modules/x/i.js": "",
      "tmp/t.txt": "",
      ".hidden": "",
    });
    const files = await collect(walkFiles(dir));
    expect(files).toEqual([".gitignore", ".hidden", "a/y.txt", "a/z.txt", "b.txt"].map((f) => join(dir, f)));
  });

  it("can include directories and filter by glob", async () => {
    writeTree(dir, { "src/a.ts": "", "src/b.js": "", "src/deep/c.ts": "" });
    const entries: string[] = [];
    for await (const e of walk(dir, { includeDirs: true })) entries.push(e.isDir ? `${e.rel}/` : e.rel);
    expect(entries).toEqual(["src/", "src/a.ts", "src/b.js", "src/deep/", "src/deep/c.ts"]);
    const ts = await collect(walkFiles(dir, { glob: "*.ts" }));
    expect(ts).toEqual([join(dir, "src/a.ts"), join(dir, "src/deep/c.ts")]);
  });

  it("does not follow symlinked directories (no cycles)", async () => {
    writeTree(dir, { "real/f.txt": "" });
    mkdirSync(join(dir, "links"));
    symlinkSync(dir, join(dir, "links", "loop"));
    const files = await collect(walkFiles(dir));
    expect(files).toEqual([join(dir, "real/f.txt")]);
  });

  it("stops when the signal is aborted", async () => {
    writeTree(dir, { "a.txt": "", "b.txt": "" });
    const c = new AbortController();
    c.abort();
    expect(await collect(walkFiles(dir, { signal: c.signal }))).toEqual([]);
  });
});
