import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApprovalPolicy } from "../../src/core/approval.js";
import { MAIN_AGENT } from "../../src/core/loop.js";
import { runToolCalls } from "../../src/core/tool-runner.js";
import { createBashTool } from "../../src/tools/bash.js";
import { NO_SANDBOX } from "../../src/tools/sandbox.js";

// The session's own check (createApprovalPolicy → decide) in front of the real bash tool, in a real
// directory, under --yolo with a deny rule: the victim file must survive every spelling.
const bash = createBashTool({ killGraceMs: 100, drainMs: 50, sandbox: NO_SANDBOX });

async function runInYolo(command: string, deny: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "ink-evasion-e2e-"));
  writeFileSync(join(dir, "victim"), "keep me\n");
  writeFileSync(join(dir, "script.sh"), "rm -f victim\n");
  const policy = createApprovalPolicy({ cwd: dir, rules: { deny }, yolo: true });
  const [result] = await runToolCalls([{ type: "toolCall", id: "c1", name: "bash", arguments: { command } }], {
    tools: [bash],
    cwd: dir,
    agent: MAIN_AGENT,
    signal: new AbortController().signal,
    emit: () => {},
    onToolCall: policy as Parameters<typeof runToolCalls>[1]["onToolCall"],
  });
  return { result: result!, survived: existsSync(join(dir, "victim")) };
}

describe("under --yolo with bash(rm) denied, no spelling deletes the file (the session's check, the real bash tool)", () => {
  const evasions = [
    // issue #36 item 3, as the tester wrote them
    "$'\\x72m' -f victim", "shopt -s expand_aliases; alias del=rm; del -f victim", "shopt -s expand_aliases\nalias del=rm\ndel -f victim", "sh script.sh", "bash ./script.sh", "sh -c 'rm -f victim'",
    // the same trick through bash's own tables, globs and brace expansion
    "shopt -s expand_aliases\nBASH_ALIASES[del]=rm\ndel -f victim", "BASH_CMDS[del]=/bin/rm; del -f victim", "declare -A BASH_CMDS=([del]=/bin/rm); del -f victim",
    "printf -v 'BASH_CMDS[del]' /bin/rm; del -f victim", "hash -p /bin/rm del; del -f victim", "/???/r[m] -f victim", "/bin/r* -f victim", "{rm,-f,victim}",
    "trap \"$'\\x72m' -f victim\" EXIT", "trap -- 'eval x' EXIT", "mapfile -C \"$'\\x72m' -f victim;:\" -c 1 <<< x",
  ];
  it.each(evasions)("%j is refused and the file stays", async (command) => {
    const { result, survived } = await runInYolo(command, ["bash(rm)"]);
    expect(result.isError, result.content).toBe(true);
    expect(result.content).toMatch(/denied by the rule bash\(rm\)|cannot be checked against the deny rule bash\(rm\)/);
    expect(survived).toBe(true);
  });

  it("the same lines do run without the deny rule (the test's commands really delete)", async () => {
    for (const command of ["$'\\x72m' -f victim", "shopt -s expand_aliases\nalias del=rm\ndel -f victim", "sh script.sh", "BASH_CMDS[del]=/bin/rm; del -f victim", "/???/r[m] -f victim", "{rm,-f,victim}", "trap \"$'\\\\x72m' -f victim\" EXIT"]) {
      const { survived } = await runInYolo(command, []);
      expect(survived, command).toBe(false);
    }
  });

  it("ordinary commands still run under the deny rule", async () => {
    for (const command of ["echo $'a\\tb'", "ls -l", "alias ll='ls -l'", "shopt -s nullglob; ls", "echo {a,b}", "cat vic*", "trap 'echo bye' EXIT", "trap - EXIT"]) {
      const { result, survived } = await runInYolo(command, ["bash(rm)"]);
      expect(result.isError, `${command}: ${result.content}`).toBe(false);
      expect(survived).toBe(true);
    }
  });
});
