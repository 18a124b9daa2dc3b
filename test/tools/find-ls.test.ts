import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFindTool, findTool } from "../../src/tools/find.js";
import { createLsTool, lsTool } from "../../src/tools/ls.js";
import { abortedSignal, makeCtx, tempDir, writeTree } from "./context.js";

describe("find tool", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    writeTree(dir, {
      "src/auth/login.ts": "",
      "src/auth/login.test.ts": "",
      "src/index.ts": "",
      "src/ui/login-form.tsx": "",
      "README.md": "",
      "node_modules/lib/login.ts": "",
      ".git/HEAD": "",
      "dist/login.js": "",
      ".gitignore": "dist/\n",
    });
  });
  afterEach(() => cleanup());

  it("matches ** globs, sorted, relative to cwd", async () => {
    const r = await findTool.execute({ pattern: "**/*.ts" }, makeCtx(dir));
    expect(r.output.split("\n")).toEqual(["src/auth/login.test.ts", "src/auth/login.ts", "src/index.ts"]);
  });

  it("matches path globs like src/**/login*", async () => {
    const r = await findTool.execute({ pattern: "src/**/login*" }, makeCtx(dir));
    expect(r.output.split("\n")).toEqual(["src/auth/login.test.ts", "src/auth/login.ts", "src/ui/login-form.tsx"]);
  });

  it("matches base names anywhere when the pattern has no slash; skips ignored dirs", async () => {
    const r = await findTool.execute({ pattern: "login*" }, makeCtx(dir));
    expect(r.output.split("\n")).toEqual(["src/auth/login.test.ts", "src/auth/login.ts", "src/ui/login-form.tsx"]);
    const braces = await findTool.execute({ pattern: "*.{md,tsx}" }, makeCtx(dir));
    expect(braces.output.split("\n")).toEqual(["README.md", "src/ui/login-form.tsx"]);
  });

  it("searches under path, matching relative to it", async () => {
    const r = await findTool.execute({ pattern: "auth/*.ts", path: "src" }, makeCtx(dir));
    expect(r.output.split("\n")).toEqual(["src/auth/login.test.ts", "src/auth/login.ts"]);
  });

  it("respects .gitignore in a git repository", async () => {
    execFileSync("git", ["init", "-q"], { cwd: dir });
    writeTree(dir, { ".gitignore": "dist/\n*.test.ts\n" });
    const r = await findTool.execute({ pattern: "**/login*" }, makeCtx(dir));
    expect(r.output.split("\n")).toEqual(["src/auth/login.ts", "src/ui/login-form.tsx"]);
  });

  it("caps results with a note", async () => {
    const r = await createFindTool({ maxResults: 2 }).execute({ pattern: "**/*" }, makeCtx(dir));
    const lines = r.output.split("\n");
    expect(lines.slice(0, 2)).toEqual([".gitignore", "README.md"]);
    expect(r.output).toContain("showing 2 of 6 matching files");
  });

  it("reports no matches and bad paths", async () => {
    const none = await findTool.execute({ pattern: "*.py" }, makeCtx(dir));
    expect(none.isError).toBe(false);
    expect(none.output).toContain("No files match *.py");
    const missing = await findTool.execute({ pattern: "*", path: "nope" }, makeCtx(dir));
    expect(missing.isError).toBe(true);
    expect(missing.output).toContain("Directory not found: nope");
    const file = await findTool.execute({ pattern: "*", path: "README.md" }, makeCtx(dir));
    expect(file.isError).toBe(true);
  });

  it("returns 'aborted' for an aborted signal and validates arguments", async () => {
    expect(await findTool.execute({ pattern: "*" }, makeCtx(dir, abortedSignal()))).toEqual({ output: "aborted", isError: true });
    expect(findTool.schema.safeParse({}).success).toBe(false);
    expect(findTool.schema.safeParse({ pattern: "" }).success).toBe(false);
  });
});

describe("ls tool", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("lists sorted entries, dirs with a trailing slash, dotfiles included", async () => {
    writeTree(dir, { "b.txt": "", "a/x": "", ".env": "", "C.md": "", "node_modules/m/i.js": "" });
    symlinkSync(join(dir, "a"), join(dir, "link-to-a"));
    const r = await lsTool.execute({}, makeCtx(dir));
    expect(r.output.split("\n")).toEqual([".env", "C.md", "a/", "b.txt", "link-to-a/", "node_modules/"]);
  });

  it("lists a relative path", async () => {
    writeTree(dir, { "sub/one.txt": "", "sub/two/x": "" });
    const r = await lsTool.execute({ path: "sub" }, makeCtx(dir));
    expect(r.output).toBe("one.txt\ntwo/");
  });

  it("caps long listings", async () => {
    writeTree(dir, Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`f${i}`, ""])));
    const r = await createLsTool({ maxEntries: 3 }).execute({}, makeCtx(dir));
    expect(r.output.split("\n").slice(0, 3)).toEqual(["f0", "f1", "f2"]);
    expect(r.output).toContain("showing 3 of 5 entries");
  });

  it("handles ., missing and file paths", async () => {
    writeTree(dir, { "f.txt": "" });
    const dot = await lsTool.execute({ path: "." }, makeCtx(dir));
    expect(dot.output).toBe("f.txt");
    const missing = await lsTool.execute({ path: "nope" }, makeCtx(dir));
    expect(missing.isError).toBe(true);
    expect(missing.output).toContain("Directory not found: nope");
    const file = await lsTool.execute({ path: "f.txt" }, makeCtx(dir));
    expect(file.isError).toBe(true);
    expect(file.output).toContain("f.txt is a file");
  });

  it("says when a directory is empty and honours aborts", async () => {
    const r = await lsTool.execute({}, makeCtx(dir));
    expect(r.isError).toBe(false);
    expect(r.output).toContain("empty directory");
    expect(await lsTool.execute({}, makeCtx(dir, abortedSignal()))).toEqual({ output: "aborted", isError: true });
  });
});
