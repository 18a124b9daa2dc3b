import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expandMentions, listMentionFiles, mentionedPaths, MENTION_MAX_BYTES, splitMentionBlocks } from "../../src/context/mentions.js";
import { git, tempDir } from "../helpers/temp-git.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function project(): string {
  const dir = tempDir("ink-mentions-");
  dirs.push(dir);
  return dir;
}

describe("@path mentions", () => {
  it("finds mentions at the start or after whitespace, not in e-mail addresses, without trailing punctuation", () => {
    expect(mentionedPaths("@a.ts look at @src/b.ts, and mail me@example.com (see @c.md)")).toEqual(["a.ts", "src/b.ts", "c.md"]);
    expect(mentionedPaths("twice @x.ts @x.ts")).toEqual(["x.ts"]);
  });

  it("attaches a mentioned file after the typed text, and the block splits off again", () => {
    const cwd = project();
    mkdirSync(join(cwd, "src"));
    writeFileSync(join(cwd, "src", "a.ts"), "line one\nline two\n");
    const out = expandMentions("explain @src/a.ts please", cwd);
    expect(out.problems).toEqual([]);
    expect(out.attached).toEqual([{ path: "src/a.ts", lines: 2, truncated: false, directory: false }]);
    expect(out.text).toBe('explain @src/a.ts please\n\n<attached-file path="src/a.ts">\nline one\nline two\n</attached-file>');
    expect(splitMentionBlocks(out.text)).toEqual({ text: "explain @src/a.ts please", paths: ["src/a.ts"], files: out.attached });
    // Text that only looks like a block is left alone.
    expect(splitMentionBlocks("see\n\n<attached-file path=\"x\"> but not closed")).toEqual({ text: "see\n\n<attached-file path=\"x\"> but not closed", paths: [], files: [] });
  });

  it("a block read back says what was attached, as the live attachment did (lines, entries, a cut file's head), so a resumed transcript counts the same", () => {
    const cwd = project();
    mkdirSync(join(cwd, "dir"));
    mkdirSync(join(cwd, "empty"));
    writeFileSync(join(cwd, "dir", "x.ts"), "x");
    writeFileSync(join(cwd, "no-newline.txt"), "one\ntwo");
    writeFileSync(join(cwd, "blank.txt"), "");
    writeFileSync(join(cwd, "big.txt"), "y\n".repeat(MENTION_MAX_BYTES));
    const out = expandMentions("see @dir @empty @no-newline.txt @blank.txt @big.txt", cwd);
    expect(out.attached).toHaveLength(5);
    expect(splitMentionBlocks(out.text).files).toEqual(out.attached);
  });

  it("refuses paths outside the working directory (.. and symlinks), binary files; cuts large ones; lists directories", () => {
    const parent = project();
    const cwd = join(parent, "repo");
    mkdirSync(cwd);
    writeFileSync(join(parent, "secret.txt"), "outside\n");
    symlinkSync(join(parent, "secret.txt"), join(cwd, "link.txt"));
    writeFileSync(join(cwd, "blob.bin"), Buffer.from([0, 1, 2, 3]));
    writeFileSync(join(cwd, "big.txt"), "x".repeat(MENTION_MAX_BYTES + 10));
    mkdirSync(join(cwd, "lib"));
    writeFileSync(join(cwd, "lib", "one.ts"), "1");
    const out = expandMentions("@../secret.txt @link.txt @blob.bin @big.txt @lib @missing.ts @alice", cwd);
    expect(out.problems).toEqual([
      `@../secret.txt: outside the working directory ${cwd} — not attached`,
      `@link.txt: outside the working directory ${cwd} — not attached`,
      "@blob.bin: a binary file — not attached (use the read tool for images)",
      `@missing.ts: no such file in ${cwd} — sent as plain text`,
    ]);
    expect(out.text).not.toContain("outside\n");
    expect(out.attached.map((a) => [a.path, a.truncated, a.directory])).toEqual([["big.txt", true, false], ["lib", false, true]]);
    expect(out.text).toContain(`truncated="first ${MENTION_MAX_BYTES} of ${MENTION_MAX_BYTES + 10} bytes"`);
    expect(out.text).toContain('<attached-directory path="lib">\none.ts\n</attached-directory>');
  });

  it("lists the working tree's files for completion without gitignored ones, .git or node_modules", async () => {
    const cwd = project();
    git(cwd, "init", "-q");
    writeFileSync(join(cwd, ".gitignore"), "dist/\n*.log\n");
    mkdirSync(join(cwd, "dist"));
    writeFileSync(join(cwd, "dist", "out.js"), "");
    writeFileSync(join(cwd, "debug.log"), "");
    mkdirSync(join(cwd, "node_modules"));
    writeFileSync(join(cwd, "node_modules", "dep.js"), "");
    mkdirSync(join(cwd, "src"));
    writeFileSync(join(cwd, "src", "main.ts"), "");
    writeFileSync(join(cwd, "README.md"), "");
    expect((await listMentionFiles(cwd)).sort()).toEqual([".gitignore", "README.md", "src/main.ts"]);
    expect(await listMentionFiles(cwd, { limit: 1 })).toHaveLength(1);
  });
});
