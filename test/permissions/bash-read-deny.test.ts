/**
 * A Read deny rule (`Read(.env)`) hides the file from read/grep/find/ls; a bash command that reads
 * it with a known file reader or a `<` redirection is denied too, with a message naming the rule.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApprovalPolicy } from "../../src/core/approval.js";
import { MAIN_AGENT } from "../../src/core/loop.js";
import { runToolCalls } from "../../src/core/tool-runner.js";
import { decide, type PermissionMode } from "../../src/permissions/decide.js";
import { parseRules } from "../../src/permissions/rules.js";
import { bashTool } from "../../src/tools/index.js";

const cwd = mkdtempSync(join(tmpdir(), "ink-bash-read-"));
writeFileSync(join(cwd, ".env"), "SECRET=env-value\n");
writeFileSync(join(cwd, "notes.md"), "set .env up first\n");
mkdirSync(join(cwd, "config", "secrets"), { recursive: true });
writeFileSync(join(cwd, "config", "secrets", "token.txt"), "SECRET=token\n");
symlinkSync(join(cwd, ".env"), join(cwd, "env-link"));

const DENY = ["Read(.env)", "Read(./config/secrets/**)"];
const verdict = (command: string, mode: PermissionMode = "yolo", deny = DENY) => decide({ tool: "bash", args: { command }, readOnly: false, cwd, mode, rules: [...parseRules(["bash"], "allow"), ...parseRules(deny, "deny")] });

describe("bash cannot read what a Read deny rule hides", () => {
  const reads = [
    "cat .env", "cat ./.env", "head -n 5 .env", "tail -f .env", "tail -n 2 -- .env", "grep -A 3 SECRET .env", "less .env", "more .env", "sed -n 1p .env", "sed -e p -- .env", "awk '{print}' .env",
    "grep SECRET .env", "grep -e SECRET .env", "rg -n SECRET .env", "strings .env", "xxd .env", "od -c .env", "base64 .env",
    "cp .env /tmp/x", "mv .env out.txt", "cp -t /tmp .env", "dd if=.env of=/dev/null", "tr a b < .env", "while read l; do echo $l; done < .env",
    "sudo cat .env", "timeout 5 cat .env", "bash -c 'cat .env'", "echo hi && cat .env", "cat notes.md .env", "cat .e*", "cat env-link",
    "cat config/secrets/token.txt", "cd config && cat secrets/token.txt", "cat " + join(cwd, ".env"), "grep -f .env notes.md",
  ];
  it.each(reads)("%j is denied, naming the rule, even in yolo mode", (line) => {
    const v = verdict(line);
    expect(v.kind, line).toBe("deny");
    expect(v.kind === "deny" && v.reason).toMatch(/reads .* which the rule Read\((\.env|\.\/config\/secrets\/\*\*)\) denies/);
  });

  it("names the command, the file and the rule", () => {
    expect(verdict("cat .env")).toEqual({ kind: "deny", reason: 'bash command "cat .env" reads .env, which the rule Read(.env) denies' });
  });

  it("other files, a pattern that only mentions the name, and a copy onto it are not reads of it", () => {
    for (const line of ["cat notes.md", "grep .env notes.md", "grep -e .env notes.md", "sed s/.env/x/ notes.md", "echo .env", "ls -la", "cp notes.md /tmp/n", "head -n 1 notes.md", "cat < notes.md", "grep -A 3 .env notes.md", "rg -g '*.md' .env"]) {
      expect(verdict(line).kind, line).toBe("allow");
    }
  });

  it("a file only known when the line runs asks (firm) instead", () => {
    expect(verdict("cat $F", "yolo")).toMatchObject({ kind: "ask", firm: true, reason: expect.stringContaining("Read(.env)") });
    expect(verdict("cat */token.txt", "yolo")).toMatchObject({ kind: "ask", firm: true });
  });

  it("without a Read deny rule nothing changes", () => {
    expect(verdict("cat .env", "yolo", [])).toEqual({ kind: "allow" });
  });

  it("through the approval policy the bash tool never runs: the model gets the denial", async () => {
    const policy = createApprovalPolicy({ cwd, rules: { deny: ["Read(.env)"] }, yolo: true });
    const [result] = await runToolCalls([{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "cat .env" } }], {
      tools: [bashTool],
      cwd,
      agent: MAIN_AGENT,
      signal: new AbortController().signal,
      emit: () => {},
      onToolCall: policy as Parameters<typeof runToolCalls>[1]["onToolCall"],
    });
    expect(result!.isError).toBe(true);
    expect(result!.content).toContain("Read(.env)");
    expect(result!.content).not.toContain("env-value");
  });
});
