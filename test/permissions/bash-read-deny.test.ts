/**
 * A Read deny rule (`Read(.env)`) hides the file from read/grep/find/ls; a bash command that reads
 * it with a known file reader or a `<` redirection is denied too, with a message naming the rule.
 * A command that may read it without naming it (a recursive search over a directory holding it,
 * xargs feeding a reader, an interpreter's inline code) asks, naming the rule.
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
mkdirSync(join(cwd, "src"));
writeFileSync(join(cwd, "src", "main.ts"), "export {};\n");
mkdirSync(join(cwd, "docs"));
symlinkSync(join(cwd, ".env"), join(cwd, "docs", "alias"));

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
    for (const line of ["cat notes.md", "grep .env notes.md", "grep -e .env notes.md", "sed s/.env/x/ notes.md", "echo .env", "ls -la", "cp notes.md /tmp/n", "head -n 1 notes.md", "cat < notes.md", "grep -A 3 .env notes.md", "rg -g '*.md' .env notes.md"]) {
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

describe("bash that may read a denied file without naming it asks, naming the rule", () => {
  const RULE = /the rule Read\((\.env|\.\/config\/secrets\/\*\*)\) denies, so it does not run without approval/;
  const recursive = [
    "grep -r SECRET .", "grep -rn SECRET", "grep -R SECRET config", "grep --recursive SECRET .", "grep -d recurse SECRET", "rgrep SECRET",
    "rg SECRET", "rg -n SECRET config", "ag SECRET", "cd config && rg SECRET", "grep -r SECRET docs", "tar czf /tmp/all.tgz .", "cp -r config /tmp/c",
    "find . -exec cat {} \\;", "find . -type f -exec grep -l SECRET {} +", "find config -exec sudo cat {} \\;", "find -name '*.txt' -execdir head {} \\;",
  ];
  const fed = ["ls | xargs cat", "find . -type f | xargs grep SECRET", "xargs -0 head -n 1", "parallel cat ::: a b"];
  const interpreters = [
    `python -c 'print(open(".env").read())'`, "python3 -Ic x", "node -e 'x'", "node --eval=x", "node -p 1", "bun -e x", "deno eval x",
    "perl -ne print notes.md", "ruby -e x", "php -r x", "echo 'print(1)' | python3", "python3 - < notes.md",
  ];

  it.each([...recursive, ...fed, ...interpreters])("%j asks (firm) even in yolo mode with bash allowed", (line) => {
    const v = verdict(line);
    expect(v.kind, line).toBe("ask");
    expect(v.kind === "ask" && v.firm, line).toBe(true);
    expect(v.kind === "ask" && v.reason, line).toMatch(RULE);
  });

  it("says what it may read: the denied path below the directory, the input, the code", () => {
    expect(verdict("grep -r SECRET .")).toMatchObject({ reason: '"grep -r SECRET ." reads the directory . and all below it, which holds .env that the rule Read(.env) denies, so it does not run without approval' });
    expect(verdict("rg SECRET config")).toMatchObject({ reason: expect.stringContaining(`holds ${join("secrets", "token.txt")} that the rule Read(./config/secrets/**) denies`) });
    expect(verdict("grep -r SECRET docs")).toMatchObject({ reason: expect.stringContaining("holds alias that the rule Read(.env) denies") }); // a symlink judged by its target
    expect(verdict("ls | xargs cat")).toMatchObject({ reason: expect.stringContaining("takes the files it reads from its input") });
    expect(verdict("node -e x")).toMatchObject({ reason: expect.stringContaining("runs code given on the line") });
  });

  it("no allow rule or mode answers it", () => {
    const rules = [...parseRules(["bash(grep *)", "bash(python3 *)"], "allow"), ...parseRules(["Read(.env)"], "deny")];
    for (const [command, mode] of [["grep -r SECRET .", "default"], ["python3 -c x", "accept-edits"], ["grep -r SECRET .", "yolo"]] as const) {
      expect(decide({ tool: "bash", args: { command }, readOnly: false, cwd, mode, rules }), command).toMatchObject({ kind: "ask", firm: true });
    }
  });

  it("a named denied file still denies, whatever else the line may read", () => {
    expect(verdict("grep -r SECRET . && cat .env").kind).toBe("deny");
    expect(verdict("ls | xargs cat; head .env").kind).toBe("deny");
  });

  it("directories without a denied path, readers not fed by input and script files run as before", () => {
    for (const line of [
      "grep -r SECRET src", "grep SECRET src", "rg SECRET src", "rg -l x src notes.md", "find src -exec cat {} \\;", "find . -name x -print", "find . -exec touch {} \\;",
      "tar czf /tmp/s.tgz src", "ls | xargs wc -l", "ls | xargs echo", "python3 script.py", "node build.js", "node --version", "perl script.pl",
    ]) {
      expect(verdict(line).kind, line).toBe("allow");
    }
  });

  it("without a Read deny rule none of these asks", () => {
    for (const line of [...recursive, ...fed, ...interpreters]) expect(verdict(line, "yolo", []), line).toEqual({ kind: "allow" });
  });
});
