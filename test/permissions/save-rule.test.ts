/** The rule saved by `s` in the approval line: exactly what allows the call, saved to the user's settings and used by the next session. */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApprovalPolicy } from "../../src/core/approval.js";
import { savableRule, saveUserRule } from "../../src/permissions/save-rule.js";
import { loadSettings } from "../../src/settings/settings.js";

const call = (name: string, args: Record<string, unknown>) => ({ type: "toolCall" as const, id: "c", name, arguments: args });
const main = { id: "main", label: "main", depth: 0 };

describe("savableRule", () => {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "ink-save-")));
  it.each([
    [call("bash", { command: "npm test" }), "bash(npm test)"],
    [call("bash", { command: "git  status   --short" }), "bash(git status --short)"],
    [call("bash", { command: "npm test && rm -rf x" }), undefined],
    [call("bash", { command: "echo $(id)" }), undefined],
    [call("bash", { command: "FOO=1 npm test" }), undefined],
    [call("bash", { command: "ls *.ts" }), undefined],
    [call("edit", { path: "src/a.ts" }), `edit(${cwd}/src/a.ts)`],
    [call("read", { path: "/etc/hosts" }), "read(/etc/hosts)"],
    [call("write", { path: "docs/*.md" }), undefined],
    [call("mcp__docs__search", { q: "x" }), "mcp__docs__search"],
    [call("task", { prompt: "x" }), undefined],
  ])("%j → %s", (c, want) => expect(savableRule(c, cwd)).toBe(want));

  it("a path through a symlinked directory is saved as its real path", () => {
    mkdirSync(join(cwd, "real"), { recursive: true });
    symlinkSync(join(cwd, "real"), join(cwd, "link"));
    expect(savableRule(call("edit", { path: "link/x.ts" }), cwd)).toBe(`edit(${cwd}/real/x.ts)`);
  });

  it("a saved rule is in the user's settings and lets the next headless session run exactly that call, and no other", async () => {
    const inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
    const bash = call("bash", { command: "npm   test" });
    const edit = call("edit", { path: "src/a.ts" });
    for (const c of [bash, edit]) saveUserRule(inkHome, savableRule(c, cwd)!);
    expect(JSON.parse(readFileSync(join(inkHome, "settings.json"), "utf8")).permissions.allow).toEqual(["bash(npm test)", `edit(${cwd}/src/a.ts)`]);
    const rules = loadSettings({ inkHome, projectDir: cwd, trusted: false }).effective.permissions;
    const policy = createApprovalPolicy({ cwd, rules });
    const tool = { readOnly: false } as never;
    expect(await policy(bash, main, tool)).toEqual({ allow: true });
    expect(await policy(edit, main, tool)).toEqual({ allow: true });
    expect(await policy(call("bash", { command: "npm test -- --watch" }), main, tool)).toMatchObject({ allow: false });
    expect(await policy(call("edit", { path: "src/b.ts" }), main, tool)).toMatchObject({ allow: false });
  });
});
