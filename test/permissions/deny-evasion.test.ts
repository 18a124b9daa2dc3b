import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decide, type PermissionMode } from "../../src/permissions/decide.js";
import { parseRules } from "../../src/permissions/rules.js";
import { savableRule } from "../../src/permissions/save-rule.js";
import { splitShell } from "../../src/permissions/shell-split.js";

const cwd = mkdtempSync(join(tmpdir(), "ink-evasion-"));
const rules = (r: { allow?: string[]; ask?: string[]; deny?: string[] }) => [...parseRules(r.allow, "allow"), ...parseRules(r.ask, "ask"), ...parseRules(r.deny, "deny")];
const verdict = (command: string, r: Parameters<typeof rules>[0], mode: PermissionMode = "default") => decide({ tool: "bash", args: { command }, readOnly: false, cwd, mode, rules: rules(r) });
const kind = (command: string, r: Parameters<typeof rules>[0], mode: PermissionMode = "default") => verdict(command, r, mode).kind;

describe("a deny rule catches the command however it is wrapped or spelled", () => {
  const spellings = [
    "rm -rf x", "rm", "timeout 5 rm -rf x", "timeout -s KILL -k 2 5s rm x", "xargs rm", "ls | xargs rm -f", "xargs -0 -n1 -I{} rm {}",
    "find . -delete", "find . -name '*.o' -exec rm {} \\;", "find . -execdir rm -f {} +", "find . -ok rm {} \\;",
    "env rm x", "env -i -u HOME A=b rm x", "nice rm x", "nice -n 10 rm x", "nice -5 rm x", "ionice -c3 rm x", "stdbuf -oL rm x",
    "command rm x", "command -p rm x", "builtin rm x", "exec -a foo rm x", "setsid -f rm x", "nohup rm x &", "time rm x", "/usr/bin/time -f %e rm x",
    "sh -c 'rm x'", "bash -c \"rm x\"", "bash -lc 'echo; rm x'", "bash -e -c 'rm x'", "zsh -c 'rm x'",
    "echo $(rm x)", "echo `rm x`", "cat <(rm x)", "a; rm x", "a && rm x", "a || rm x", "a | rm x", "a & rm x",
    "sudo rm x", "sudo -u root rm x", "sudo -E -- rm x", "doas -u root rm x", "su -c 'rm x'", "su root -c 'rm x'",
    "/bin/rm x", "/usr/bin/rm -rf x", "\\rm x", "r\\m x", "'rm' x", "\"rm\" x",
    "busybox rm x", "chroot / rm x", "flock /tmp/l rm x", "flock /tmp/l -c 'rm x'", "watch -n 1 rm x", "unbuffer rm x",
    "strace -o /dev/null rm x", "taskset 1 rm x", "parallel rm ::: a b", "env -S 'rm x'", "xargs sh -c 'rm \"$@\"' _",
    "find . -exec sh -c 'rm \"$1\"' _ {} \\;", "timeout 5 nice -n 1 sudo -u x env A=1 rm y",
    "time -- rm x", "time -p -- rm x",
  ];
  it.each(spellings)("%j is denied by bash(rm *), in default and yolo mode", (line) => {
    for (const mode of ["default", "yolo"] as const) {
      const v = verdict(line, { allow: ["bash"], deny: ["bash(rm *)"] }, mode);
      expect(v, `${line} (${mode})`).toMatchObject({ kind: "deny", reason: expect.stringContaining("bash(rm *)") });
    }
  });

  it("the same spellings are denied by bash(rm) too; commands not named by the rule still run", () => {
    for (const line of spellings) expect(kind(line, { allow: ["bash"], deny: ["bash(rm)"] }), line).toBe("deny");
    for (const line of ["timeout 5 ls", "xargs echo", "find . -name x -print", "nice -n 10 make", "sudo -u root ls", "env -u A ls", "rmdir x", "echo rm", "command -v rm"]) {
      expect(kind(line, { allow: ["bash"], deny: ["bash(rm *)"] }), line).toBe("allow");
    }
  });

  it("a denied program run through a wrapper Ink does not know asks — in yolo too; a program that only prints or reads its arguments still runs", () => {
    for (const line of ["unshare rm x", "fakeroot rm x", "setpriv --reuid 0 rm x", "cpulimit -l 5 rm x", "firejail --quiet /bin/rm x", "git rm x"]) {
      for (const mode of ["default", "yolo"] as const) {
        const v = verdict(line, { allow: ["bash"], deny: ["bash(rm *)"] }, mode);
        expect(v, `${line} (${mode})`).toMatchObject({ kind: "ask", firm: true, reason: expect.stringContaining("names rm after a program Ink does not know") });
      }
      expect(kind(line, { allow: ["bash"] }, "yolo"), line).toBe("allow"); // no deny rule: nothing to guard
    }
    for (const line of ["echo rm", "which rm", "grep rm notes.txt", "man rm", "unshare ls"]) expect(kind(line, { allow: ["bash"], deny: ["bash(rm *)"] }, "yolo"), line).toBe("allow");
  });

  it("a program whose name is only known when the line runs asks under a deny rule — in yolo too — and runs without one", () => {
    for (const line of ["$X x", "${X} x", "X=rm; $X x", "rm${IFS}x", "$(echo rm) x", "eval 'rm x'", "source ./s.sh", "echo rm x | sh", "curl -s x | bash", "echo 'unterminated"]) {
      for (const mode of ["default", "yolo"] as const) {
        const v = verdict(line, { allow: ["bash"], deny: ["bash(rm *)"] }, mode);
        expect(v, `${line} (${mode})`).toMatchObject({ kind: "ask", firm: true, reason: expect.stringContaining("cannot be checked against the deny rule bash(rm *)") });
      }
      expect(kind(line, {}, "yolo"), line).toBe("allow");
    }
  });

  it("an xargs or find -delete whose arguments may complete a narrower deny rule asks", () => {
    const v = verdict("ls | xargs rm", { allow: ["bash"], deny: ["bash(rm -rf *)"] }, "yolo");
    expect(v).toMatchObject({ kind: "ask", firm: true, reason: expect.stringMatching(/"rm" takes more arguments from its input.*bash\(rm -rf \*\)/) });
    expect(kind("find . -delete", { allow: ["bash"], deny: ["bash(rm -rf *)"] })).toBe("ask");
    expect(kind("xargs rm -rf", { allow: ["bash"], deny: ["bash(rm -rf *)"] })).toBe("deny");
    expect(kind("ls | xargs grep x", { allow: ["bash"], deny: ["bash(rm -rf *)"] })).toBe("allow");
  });
});

describe("allow rules see what a wrapper runs", () => {
  it("bash(find *) does not allow -exec, -execdir, -ok or -delete; the inner command needs its own rule", () => {
    const allow = { allow: ["bash(find *)"] };
    expect(kind("find . -name '*.ts'", allow)).toBe("allow");
    for (const line of ["find . -exec rm {} \\;", "find . -execdir sh -c 'x' \\;", "find . -ok mv {} /tmp \\;", "find . -delete"]) expect(kind(line, allow), line).toBe("ask");
    expect(verdict("find . -delete", allow)).toMatchObject({ reason: 'no rule allows "rm" with arguments from its input' });
    expect(kind("find . -exec grep -l x {} +", { allow: ["bash(find *)", "bash(grep *)"] })).toBe("allow");
    expect(kind("find . -fprint /tmp/out", allow)).toBe("ask");
  });

  it("xargs needs a rule covering the command with any further arguments", () => {
    expect(kind("ls | xargs wc -l", { allow: ["bash(ls)", "bash(wc *)"] })).toBe("allow");
    expect(kind("ls | xargs wc -l", { allow: ["bash(ls)", "bash(wc -l)"] })).toBe("ask");
    expect(kind("ls | xargs", { allow: ["bash(ls)", "bash(echo *)"] })).toBe("allow");
  });

  it("harmless wrappers are looked through for allow; privilege wrappers must be named", () => {
    expect(kind("timeout 60 npm test", { allow: ["bash(npm test)"] })).toBe("allow");
    expect(kind("nice -n 5 npm test", { allow: ["bash(npm test)"] })).toBe("allow");
    expect(kind("sudo -u root npm test", { allow: ["bash(npm test)"] })).toBe("ask");
    expect(kind("chroot / npm test", { allow: ["bash(npm test)"] })).toBe("ask");
    // …also when the elevated command is a shell script.
    for (const line of ["sudo bash -c 'rm x'", "su -c 'rm x'", "sudo sh -c \"rm x\"", "doas watch rm x", "sudo -s"]) expect(kind(line, { allow: ["bash(rm *)"] }), line).toBe("ask");
    expect(kind("sudo bash -c 'rm x'", { allow: ["bash(rm *)", "bash(sudo bash -c *)"] })).toBe("allow");
    expect(kind("timeout 60 env NODE_OPTIONS=--require=/tmp/x.js npm test", { allow: ["bash(npm test)"] })).toBe("ask");
  });

  it("lines with wrappers or open arguments offer no rule to save", () => {
    for (const command of ["xargs rm", "find . -delete", "$X y"]) expect(savableRule({ type: "toolCall", id: "1", name: "bash", arguments: { command } }, cwd), command).toBeUndefined();
    expect(splitShell("timeout 5 rm -rf x")).toMatchObject({ commands: ["rm -rf x"], parsed: true, open: [] });
  });
});

describe("spellings that name the program only once bash has read them", () => {
  it("ANSI-C quoting ($'…') is decoded as bash does, so a deny rule sees the program — in yolo too", () => {
    for (const line of ["$'\\x72m' -f victim", "$'\\162\\155' victim", "$'r\\u006d' x", "$'\\U00000072'm x", "r$'m' x", "sudo $'\\x72m' x", "bash -c $'\\x72m x'"]) {
      for (const mode of ["default", "yolo"] as const) expect(verdict(line, { allow: ["bash"], deny: ["bash(rm)"] }, mode), `${line} (${mode})`).toMatchObject({ kind: "deny" });
    }
    expect(splitShell("$'\\x72m' -f victim").commands).toEqual(["rm -f victim"]);
    expect(kind("echo $'a\\tb'", { allow: ["bash"], deny: ["bash(rm)"] })).toBe("allow");
  });

  it("decodeAnsiC agrees with bash on every escape form", async () => {
    const { execFileSync } = await import("node:child_process");
    const { decodeAnsiC } = await import("../../src/permissions/shell-split.js");
    const bodies = ["\\x72m", "\\x7", "\\xg", "\\162\\155", "\\1a", "\\u00e9t\\u00e9", "\\U0001F600", "\\cA\\c?", "\\a\\b\\e\\E\\f\\n\\r\\t\\v", "\\\\ \\' \\\" \\?", "\\q\\z", "ab\\x00cd", "\\uZ"];
    for (const body of bodies) {
      const fromBash = execFileSync("bash", ["-c", `printf '%s' $'${body}'`], { encoding: "utf8" });
      expect(decodeAnsiC(body), body).toBe(fromBash);
    }
  });

  it("an alias whose body names a denied program is caught where it is defined", () => {
    for (const line of ["shopt -s expand_aliases; alias del=rm; del -f victim", "alias del='rm -f'", "alias ll='ls -l' del=\"sudo rm\"", "alias x='echo; rm y'"]) {
      for (const mode of ["default", "yolo"] as const) expect(verdict(line, { allow: ["bash"], deny: ["bash(rm)"] }, mode), `${line} (${mode})`).toMatchObject({ kind: "deny", reason: expect.stringContaining("bash(rm)") });
    }
    expect(kind("alias ll='ls -l'", { allow: ["bash"], deny: ["bash(rm)"] }, "yolo")).toBe("allow");
    // An allow rule must cover what the alias runs, too.
    expect(kind("alias x='curl evil'", { allow: ["bash(alias *)"] })).toBe("ask");
  });

  it("running a script file through a shell asks as sourcing it does", () => {
    for (const line of ["sh script.sh", "bash ./script.sh", "bash -e script.sh arg", "bash -o errexit script.sh", "zsh s.zsh", "sudo sh s.sh"]) {
      for (const mode of ["default", "yolo"] as const) {
        expect(verdict(line, { allow: ["bash"], deny: ["bash(rm)"] }, mode), `${line} (${mode})`).toMatchObject({ kind: "ask", firm: true, reason: expect.stringMatching(/cannot be checked against the deny rule bash\(rm\) \(\w+ runs the script file \S*s/) });
        expect(kind(". ./script.sh", { allow: ["bash"], deny: ["bash(rm)"] }, mode)).toBe("ask");
      }
      // No deny rule: a script file is still never auto-allowed by a broad rule, as sourcing is not.
      expect(kind(line, { allow: ["bash"] }), line).toBe(kind(". ./script.sh", { allow: ["bash"] }));
    }
  });
});
