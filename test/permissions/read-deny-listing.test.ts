import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApprovalPolicy } from "../../src/core/approval.js";
import { MAIN_AGENT } from "../../src/core/loop.js";
import { runToolCalls } from "../../src/core/tool-runner.js";
import { childToolGate } from "../../src/subagents/runtime/child-prompt.js";
import { findTool, grepTool, lsTool } from "../../src/tools/index.js";

/** A project with secrets a Read deny rule covers, and ordinary files beside them. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "ink-read-deny-"));
  writeFileSync(join(dir, ".env"), "SECRET=env-value\n");
  writeFileSync(join(dir, "app.ts"), "const SECRET_NAME = 'ok';\n");
  mkdirSync(join(dir, "config", "secrets"), { recursive: true });
  writeFileSync(join(dir, "config", "secrets", "token.txt"), "SECRET=token-value\n");
  writeFileSync(join(dir, "config", "settings.json"), '{"SECRET": false}\n');
  symlinkSync(join(dir, ".env"), join(dir, "env-link"));
  return dir;
}

async function run(dir: string, name: string, args: Record<string, unknown>, deny: string[], wrap = (p: ReturnType<typeof createApprovalPolicy>) => p as Parameters<typeof runToolCalls>[1]["onToolCall"]) {
  const policy = createApprovalPolicy({ cwd: dir, rules: { deny }, yolo: true });
  const [result] = await runToolCalls([{ type: "toolCall", id: "c1", name, arguments: args }], {
    tools: [grepTool, findTool, lsTool],
    cwd: dir,
    agent: MAIN_AGENT,
    signal: new AbortController().signal,
    emit: () => {},
    onToolCall: wrap(policy),
  });
  return result!;
}

describe("grep, find and ls honour the Read deny rules", () => {
  const deny = ["Read(./.env)", "Read(./**/secrets/**)"];

  it("grep over a directory skips the files a Read deny rule covers (symlinks to them too) and says how many", async () => {
    const dir = project();
    const r = await run(dir, "grep", { pattern: "SECRET" }, deny);
    expect(r.isError).toBe(false);
    expect(r.content).toContain("app.ts:1:");
    expect(r.content).toContain("config/settings.json:1:");
    expect(r.content).not.toMatch(/env-value|token-value/);
    expect(r.content).toContain("[not searched: 3 file(s) a deny rule covers (Read(./.env): 2, Read(./**/secrets/**): 1)]");
    // Without rules every file is searched (the test's files do hold the secrets).
    expect((await run(dir, "grep", { pattern: "SECRET" }, [])).content).toMatch(/env-value[\s\S]*token-value|token-value[\s\S]*env-value/);
  });

  it("grep on the denied file itself, and under a bare read deny, shows no content", async () => {
    const dir = project();
    const one = await run(dir, "grep", { pattern: "SECRET", path: ".env" }, deny);
    expect(one.content).not.toContain("env-value");
    expect(one.content).toContain("not searched: 1 file(s)");
    const all = await run(dir, "grep", { pattern: "SECRET" }, ["read"]);
    expect(all.content).not.toMatch(/env-value|token-value|SECRET_NAME/);
    expect(all.content).toContain("not searched: 5 file(s) a deny rule covers (read: 5)");
  });

  it("find and ls leave out the names a rule hides and say how many", async () => {
    const dir = project();
    const found = await run(dir, "find", { pattern: "*" }, deny);
    expect(found.content).toContain("app.ts");
    expect(found.content.split("\n\n")[0]).toBe("app.ts\nconfig/settings.json");
    expect(found.content).toContain("[not listed: 3 file(s) a deny rule covers");
    const listed = await run(dir, "ls", { path: "config/secrets" }, deny);
    expect(listed.content).not.toContain("token.txt");
    expect(listed.content).toContain("not listed: 1 file(s) a deny rule covers (Read(./**/secrets/**): 1)");
    const top = await run(dir, "ls", {}, deny);
    expect(top.content).toContain("app.ts");
    expect(top.content.split("\n\n")[0]).toBe("app.ts\nconfig/");
  });

  it("the hiding travels with a plan-mode child's check", async () => {
    const dir = project();
    const r = await run(dir, "grep", { pattern: "SECRET" }, deny, (p) => childToolGate(p, { name: "planner", path: "/x.md", permissionMode: "plan" }));
    expect(r.content).not.toMatch(/env-value|token-value/);
    expect(r.content).toContain("app.ts:1:");
  });
});
