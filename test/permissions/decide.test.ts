import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decide, type PermissionMode } from "../../src/permissions/decide.js";
import { parseRule, parseRules } from "../../src/permissions/rules.js";
import { splitShell } from "../../src/permissions/shell-split.js";
import { saveUserRule } from "../../src/permissions/save-rule.js";
import { createApprovalPolicy } from "../../src/core/approval.js";
import { toolEnv } from "../../src/tools/tool-env.js";
import { bashTool } from "../../src/tools/bash.js";

const cwd = mkdtempSync(join(tmpdir(), "ink-perm-"));
const rules = (r: { allow?: string[]; ask?: string[]; deny?: string[] }) => [...parseRules(r.allow, "allow"), ...parseRules(r.ask, "ask"), ...parseRules(r.deny, "deny")];
const bash = (command: string, r: Parameters<typeof rules>[0], mode: PermissionMode = "default") => decide({ tool: "bash", args: { command }, readOnly: false, cwd, mode, rules: rules(r) }).kind;
const file = (tool: string, path: string, r: Parameters<typeof rules>[0] = {}, mode: PermissionMode = "default", dir = cwd) =>
  decide({ tool, args: { path }, readOnly: tool === "read" || tool === "ls", cwd: dir, mode, rules: rules(r) }).kind;

describe("precedence: deny > ask > allow across scopes", () => {
  const table: Array<[Parameters<typeof rules>[0], string]> = [
    [{ allow: ["bash(npm test)"] }, "allow"],
    [{ allow: ["bash(npm test)"], ask: ["bash(npm *)"] }, "ask"],
    [{ allow: ["bash"], ask: ["bash(npm test)"], deny: ["bash(npm)"] }, "deny"],
    [{ ask: ["bash"], deny: ["bash(npm test)"] }, "deny"],
    [{}, "ask"],
  ];
  it.each(table)("%j → %s", (r, want) => expect(bash("npm test", r)).toBe(want));
  it("user + project scopes merged still follow deny > allow", () => {
    const policyRules = { allow: ["bash(rm *)"], deny: ["bash(rm)"] };
    expect(bash("rm -rf x", policyRules)).toBe("deny");
  });
  it("malformed rule is an error naming it", () => expect(() => parseRule("bash(", "allow")).toThrow(/bash\(/));
});

describe("compound lines: every command must be allowed, any deny denies", () => {
  const allow = { allow: ["bash(git status*)", "bash(ls*)"] };
  it.each(["git status && rm x", "git status || rm x", "git status; rm x", "git status | rm x", "git status & rm x", "git status\nrm x"])("%j is not allowed by git status*", (line) => {
    expect(bash(line, allow)).toBe("ask");
    expect(bash(line, { ...allow, deny: ["bash(rm)"] })).toBe("deny");
  });
  it("all parts allowed → allowed", () => expect(bash("git status && ls -la | ls", allow)).toBe("allow"));
  it.each(["git status $(rm x)", "git status `rm x`", "git status <(rm x)", "echo 'unterminated", "git status > out.txt", "eval rm x"])("%j is never auto-allowed", (line) => {
    expect(bash(line, { allow: ["bash(git status*)", "bash(echo*)", "bash(eval*)"] })).toBe("ask");
  });
  it("prefix variables, env, sudo, nohup and bash -c are looked through for deny", () => {
    for (const line of ["FOO=1 rm x", "env A=b rm x", "sudo rm x", "nohup rm x &", "bash -c 'ls; rm x'", "sh -c \"rm x\""]) expect(bash(line, { allow: ["bash"], deny: ["bash(rm)"] })).toBe("deny");
    expect(bash("FOO=1 npm test", { allow: ["bash(npm test)"] })).toBe("allow");
    // …but not a variable that changes what runs.
    for (const line of ["NODE_OPTIONS=--require=/tmp/x.js npm test", "LD_PRELOAD=/tmp/x.so npm test", "PATH=/tmp/evil:$PATH npm test", "env BASH_ENV=/tmp/x npm test"]) expect(bash(line, { allow: ["bash(npm test)"] }), line).toBe("ask");
    expect(bash("bash -c 'npm test'", { allow: ["bash(npm test)"] })).toBe("allow");
    expect(bash("sudo npm test", { allow: ["bash(npm test)"] })).toBe("ask");
    expect(splitShell("a && b | c; d").commands).toEqual(["a", "b", "c", "d"]);
  });

  it("the real shell parser: commands inside substitutions, loops and conditionals count for deny; such lines never auto-allow", () => {
    const deny = { allow: ["bash"], deny: ["bash(rm*)"] };
    for (const line of ['echo "$(rm -rf x)"', "for f in *; do rm $f; done", "if true; then rm x; fi", "(cd /tmp && rm x)", "{ rm x; }", "f() { rm x; }; f", "X=$(rm x) ls", "echo ok # && rm x\nrm y"]) {
      expect(bash(line, deny), line).toBe("deny");
    }
    expect(splitShell('echo "$(rm -rf x)"')).toMatchObject({ parsed: false, problem: "command substitution" });
    expect(splitShell("for f in a b; do echo $f; done").commands).toEqual(["echo $f"]);
  });

  it("the real shell parser reads quotes, escapes, comments, heredocs and fd redirections as the shell does", () => {
    const allow = { allow: ["bash(git status*)", "bash(cat*)", "bash(grep*)"] };
    expect(splitShell("git status # && rm -rf /")).toMatchObject({ commands: ["git status"], parsed: true });
    expect(splitShell("grep 'a && b' file | cat")).toMatchObject({ commands: ["grep a && b file", "cat"], parsed: true });
    expect(splitShell('grep "x;y" \\; file')).toMatchObject({ commands: ["grep x;y ; file"], parsed: true });
    expect(bash("cat <<EOF\nrm -rf /\nEOF", allow)).toBe("allow"); // a heredoc is data, not a command
    expect(bash("git status 2>&1 | grep -v x >/dev/null", allow)).toBe("allow");
    expect(bash("git status >&out.txt", allow)).toBe("ask");
    expect(bash("git status &>log", allow)).toBe("ask");
    expect(bash("$CMD status", { allow: ["bash(git status*)"] })).toBe("ask");
    expect(splitShell("echo 'open")).toMatchObject({ parsed: false, problem: expect.stringContaining("the shell parser cannot read it") });
  });
});

describe("modes", () => {
  it("accept-edits allows edit/write inside cwd, still asks for bash; plan allows only read-only", () => {
    expect(file("edit", "src/a.ts", {}, "accept-edits")).toBe("allow");
    expect(file("write", "/etc/x", {}, "accept-edits")).toBe("ask");
    expect(bash("ls", {}, "accept-edits")).toBe("ask");
    expect(file("write", "a.txt", { allow: ["write"] }, "plan")).toBe("deny");
    expect(file("write", "a.txt", {}, "plan")).toBe("deny");
    expect(bash("ls", { allow: ["bash"] }, "plan")).toBe("deny");
    expect(file("read", "a.txt", {}, "plan")).toBe("allow");
    expect(bash("rm x", {}, "yolo")).toBe("allow");
    expect(bash("rm x", { deny: ["bash(rm)"] }, "yolo")).toBe("deny");
  });
});

describe("paths", () => {
  it("edit escapes via .., absolute, symlinked dir/file and dangling symlink are not allowed by edit(**) inside cwd", () => {
    const dir = mkdtempSync(join(tmpdir(), "ink-perm-p-"));
    const outside = mkdtempSync(join(tmpdir(), "ink-out-"));
    writeFileSync(join(outside, "f"), "x");
    symlinkSync(outside, join(dir, "linkdir"));
    symlinkSync(join(outside, "f"), join(dir, "linkfile"));
    symlinkSync(join(outside, "missing"), join(dir, "dangling"));
    for (const p of ["../x", join(outside, "f"), "linkdir/f", "linkfile", "dangling"]) expect(file("edit", p, { allow: ["edit(src/**)"] }, "accept-edits", dir)).toBe("ask");
    expect(file("edit", "src/a.ts", { allow: ["edit(src/**)"] }, "default", dir)).toBe("allow");
    expect(file("write", ".git/config", {}, "yolo", dir)).toBe("deny");
  });
  it("outside the working directory (a child's worktree) a bare edit/write rule, edit(**) and yolo do not allow a change; a path rule does", () => {
    const dir = mkdtempSync(join(tmpdir(), "ink-perm-wt-"));
    const outside = mkdtempSync(join(tmpdir(), "ink-main-checkout-"));
    symlinkSync(outside, join(dir, "linkdir"));
    for (const p of [join(outside, "a.ts"), "../a.ts", "linkdir/a.ts"]) {
      for (const r of [{ allow: ["edit"] }, { allow: ["edit(**)"] }, {}]) {
        expect(file("edit", p, r, "yolo", dir), `${p} ${JSON.stringify(r)} yolo`).toBe("ask");
        expect(file("write", p, { allow: ["write"] }, "accept-edits", dir), p).toBe("ask");
      }
    }
    expect(file("edit", join(outside, "a.ts"), { allow: [`edit(${outside}/**)`] }, "default", dir)).toBe("allow");
    expect(file("edit", "src/a.ts", { allow: ["edit"] }, "default", dir)).toBe("allow");
    expect(file("edit", "src/a.ts", {}, "yolo", dir)).toBe("allow");
    expect(file("read", join(outside, "a.ts"), {}, "yolo", dir)).toBe("allow");
    expect(decide({ tool: "edit", args: { path: "../a.ts" }, readOnly: false, cwd: dir, mode: "yolo", rules: [] })).toMatchObject({ reason: expect.stringContaining("a bare edit rule or yolo does not") });
  });
  it("read outside the project asks; /proc/self/environ is never allowed by a broad rule", () => {
    expect(file("read", "/etc/hostname")).toBe("ask");
    expect(file("read", "/etc/hostname", { allow: ["read(/etc/**)"] })).toBe("allow");
    expect(file("read", "/proc/self/environ", { allow: ["read(**)", "read(/proc/**)"] })).toBe("ask");
    expect(file("read", "/proc/self/environ", {}, "yolo")).toBe("ask");
  });
});

describe("approval policy", () => {
  const tool = (readOnly: boolean) => ({ readOnly }) as never;
  it("headless: allow rule runs, ask becomes a denial with the reason, deny denies", async () => {
    const policy = createApprovalPolicy({ cwd, rules: { allow: ["bash(git status)"], deny: ["bash(rm)"] } });
    const agent = { id: "main", label: "main", depth: 0 };
    expect(await policy({ type: "toolCall", id: "1", name: "bash", arguments: { command: "git status" } }, agent, tool(false))).toEqual({ allow: true });
    const asked = await policy({ type: "toolCall", id: "2", name: "bash", arguments: { command: "npm test" } }, agent, tool(false));
    expect(asked).toMatchObject({ allow: false, reason: expect.stringMatching(/headless.*no rule allows "npm test"|no rule allows "npm test".*headless/s) });
    expect(await policy({ type: "toolCall", id: "3", name: "bash", arguments: { command: "rm -rf x" } }, agent, tool(false))).toMatchObject({ allow: false, reason: expect.stringContaining("bash(rm)") });
    expect(await policy({ type: "toolCall", id: "4", name: "read", arguments: { path: "/proc/self/environ" } }, agent, tool(true))).toMatchObject({ allow: false });
  });
  it("a child's call is decided with its own cwd (worktree) and label", async () => {
    const worktree = mkdtempSync(join(tmpdir(), "ink-wt-"));
    const policy = createApprovalPolicy({ cwd, mode: "accept-edits" });
    const child = { id: "c1", label: "scout", depth: 1, cwd: worktree };
    expect(await policy({ type: "toolCall", id: "1", name: "write", arguments: { path: join(worktree, "a.txt") } }, child, tool(false))).toEqual({ allow: true });
    const denied = await policy({ type: "toolCall", id: "2", name: "write", arguments: { path: join(cwd, "a.txt") } }, child, tool(false));
    expect(denied).toMatchObject({ allow: false, reason: expect.stringContaining("subagent scout (c1)") });
    policy.mode = "plan";
    expect(await policy({ type: "toolCall", id: "3", name: "write", arguments: { path: join(worktree, "a.txt") } }, child, tool(false))).toMatchObject({ allow: false });
  });
  it("saveUserRule appends to the user's settings, keeping other keys", () => {
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, "settings.json"), JSON.stringify({ model: "m" }));
    saveUserRule(home, "bash(git status)");
    saveUserRule(home, "bash(git status)");
    expect(JSON.parse(readFileSync(join(home, "settings.json"), "utf8"))).toEqual({ model: "m", permissions: { allow: ["bash(git status)"] } });
  });
});

describe("secrets", () => {
  it("tool env drops provider keys and tokens unless passed through", () => {
    const env = toolEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_AUTH_TOKEN: "t", GITHUB_TOKEN: "g", PATH: "/bin", MY_API_KEY: "m" }, ["GITHUB_*"]);
    expect(env).toEqual({ PATH: "/bin", GITHUB_TOKEN: "g" });
  });
  it("a bash line reaching a process environment is never allowed by a broad rule or yolo — globbed, quoted, via cd or /dev/fd", () => {
    const broad = { allow: ["bash(cat *)", "bash(cd *)", "bash(grep *)", "bash(ls*)"] };
    for (const line of ["cat /proc/$PPID/env*", `cat "/pr""oc/self/envi"'ron'`, "cd /proc/$PPID && cat e*", "cat /dev/fd/../environ", "grep -a KEY /proc/*/environ", "cd /proc; ls", "cat ~/.ssh/id_ed25519"]) {
      expect(bash(line, broad), line).toBe("ask");
      expect(bash(line, {}, "yolo"), `${line} (yolo)`).toBe("ask");
    }
    expect(decide({ tool: "bash", args: { command: "cat /proc/$PPID/env*" }, readOnly: false, cwd, mode: "default", rules: rules(broad) })).toMatchObject({ reason: expect.stringContaining("/proc/$PPID/env*") });
    for (const line of ["cat /proc/cpuinfo", "ls ./proc", "cat src/proc/x.ts", "grep -r environment src"]) expect(bash(line, broad), line).toBe("allow");
  });

  it("bash does not see ANTHROPIC_API_KEY", async () => {
    process.env.ANTHROPIC_API_KEY = "sk-secret-marker-123";
    try {
      const out = await bashTool.execute({ command: "env" }, { cwd, signal: new AbortController().signal, toolCallId: "x" });
      expect(out.output).not.toContain("sk-secret-marker-123");
      expect(out.output).toContain("PATH=");
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
  });
});

describe("untrusted means inert", () => {
  it("an untrusted project's .ink/settings.json rules and gated files are not used; trust is keyed by hashes", async () => {
    const { projectTrust, recordProjectTrust } = await import("../../src/subagents/profiles/trust.js");
    const { AgentSession } = await import("../../src/host/agent-session.js");
    const { createScriptedProvider } = await import("../../src/providers/scripted.js");
    const proj = mkdtempSync(join(tmpdir(), "ink-untrusted-"));
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    mkdirSync(join(proj, ".ink"), { recursive: true });
    writeFileSync(join(proj, ".ink", "settings.json"), JSON.stringify({ permissions: { allow: ["bash"] } }));
    writeFileSync(join(proj, ".mcp.json"), "{}");
    const s = new AgentSession({ cwd: proj, inkHome: home, provider: createScriptedProvider([]), model: "m", interactive: false, approval: {}, persist: false });
    const d = await s.onToolCall({ type: "toolCall", id: "1", name: "bash", arguments: { command: "ls" } }, { id: "main", label: "main", depth: 0 }, { readOnly: false } as never);
    expect(d.allow).toBe(false);
    expect(projectTrust(home, proj)).toMatchObject({ trusted: false, gatedFiles: [".ink/settings.json", ".mcp.json"] });
    recordProjectTrust(home, proj);
    expect(projectTrust(home, proj).trusted).toBe(true);
    const t = new AgentSession({ cwd: proj, inkHome: home, provider: createScriptedProvider([]), model: "m", interactive: false, approval: {}, persist: false });
    expect((await t.onToolCall({ type: "toolCall", id: "1", name: "bash", arguments: { command: "ls" } }, { id: "main", label: "main", depth: 0 }, { readOnly: false } as never)).allow).toBe(true);
    writeFileSync(join(proj, ".mcp.json"), '{"mcpServers":{}}');
    expect(projectTrust(home, proj)).toMatchObject({ trusted: false, changed: [".mcp.json"] });
    t.setPermissionMode("plan");
    expect(t.permissionMode).toBe("plan");
  });
});

describe("edits respect the file", () => {
  it("keeps the mode, keeps a hard link, refuses a read-only file", async () => {
    const { writeFileAtomic } = await import("../../src/tools/atomic-write.js");
    const { chmodSync, linkSync, statSync } = await import("node:fs");
    const dir = mkdtempSync(join(tmpdir(), "ink-edit-"));
    const a = join(dir, "a.sh");
    writeFileSync(a, "x");
    chmodSync(a, 0o754);
    await writeFileAtomic(a, "y");
    expect(statSync(a).mode & 0o777).toBe(0o754);
    linkSync(a, join(dir, "b.sh"));
    await writeFileAtomic(a, "z");
    expect(readFileSync(join(dir, "b.sh"), "utf8")).toBe("z");
    const ro = join(dir, "ro.txt");
    writeFileSync(ro, "keep");
    chmodSync(ro, 0o444);
    await expect(writeFileAtomic(ro, "new")).rejects.toThrow(/read-only/);
    expect(readFileSync(ro, "utf8")).toBe("keep");
  });
});
