import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { BUILTIN_COMMAND_NAMES, expandCommand, loadCommandFiles } from "../../src/commands/command-files.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { gatedProjectFiles } from "../../src/subagents/profiles/trust.js";
import { SLASH_COMMANDS } from "../../components/state/slash-commands.js";
import { firstPrompt, isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const put = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

/** Claude Code's documented shapes: front matter optional, `argument-hint: [pr-number] [priority]` is a YAML list. */
function project() {
  const cwd = temp("ink-cmd-cwd-");
  const inkHome = temp("ink-cmd-home-");
  const claudeHome = temp("ink-cmd-claude-");
  put(join(cwd, ".claude/commands/frontend/review.md"), "---\ndescription: Review a pull request\nargument-hint: [pr-number] [priority]\nallowed-tools: Bash(git diff:*), Read\nmodel: haiku\n---\nReview PR #$1 with priority $2. Everything: $ARGUMENTS\n");
  put(join(cwd, ".ink/commands/fix.md"), "Fix the issue described here: $ARGUMENTS\nFollow the coding standards.\n");
  put(join(cwd, ".claude/commands/audit.md"), "---\ndescription: Audit the code base in a child\ncontext: fork\n---\nAudit $ARGUMENTS for security problems.\n");
  put(join(cwd, ".claude/commands/scan.md"), "---\ndescription: Scan with scout\nagent: scout\n---\nScan $1.\n");
  put(join(claudeHome, "commands/standup.md"), "Write my standup notes.\n");
  put(join(inkHome, "commands/help.md"), "Not the built-in help.\n");
  return { cwd, inkHome, claudeHome };
}

describe("slash-command files", () => {
  it("reads project (trusted only) and user files; a sub-folder file is /name with its folder as namespace (/folder:name runs it too); front matter as documented", () => {
    const { cwd, inkHome, claudeHome } = project();
    const untrusted = loadCommandFiles({ cwd, inkHome, claudeHome, trusted: false });
    expect(untrusted.commands.map((c) => c.name)).toEqual(["/standup"]);
    expect(untrusted.notices.join("\n")).toContain("Skipped 4 project command file(s) in .claude/commands, .ink/commands: trust this project");

    const load = loadCommandFiles({ cwd, inkHome, claudeHome, trusted: true });
    expect(load.commands.map((c) => `${c.name}:${c.source}`)).toEqual(["/audit:claude-project", "/fix:project", "/review:claude-project", "/scan:claude-project", "/standup:claude-user"]);
    const review = load.commands.find((c) => c.name === "/review")!;
    expect(review).toMatchObject({ namespace: "frontend", aliases: ["/frontend:review"], description: "Review a pull request", argumentHint: "[pr-number] [priority]", allowedTools: ["Bash(git diff:*)", "Read"], model: "haiku", fork: false });
    expect(load.commands.find((c) => c.name === "/fix")!.description).toBe("Fix the issue described here: $ARGUMENTS");
    expect(load.commands.find((c) => c.name === "/audit")!.fork).toBe(true);
    expect(load.commands.find((c) => c.name === "/audit")!.agent).toBeUndefined();
    expect(load.commands.find((c) => c.name === "/scan")).toMatchObject({ fork: true, agent: "scout" });
    // A built-in name wins, said once.
    expect(load.notices.filter((n) => n.includes("/help"))).toEqual([`Command file ${join(inkHome, "commands/help.md")} is named /help, a built-in command; the built-in runs (rename the file to use it).`]);
    // .claude/commands are gated like .ink/commands.
    expect(gatedProjectFiles(cwd)).toEqual(expect.arrayContaining([".claude/commands/frontend/review.md", ".claude/commands/audit.md", ".ink/commands/fix.md"]));
  });

  it("substitutes $ARGUMENTS and $1…$9 (quotes group words); a body without them gets the arguments appended", () => {
    const body = "Review PR #$1 with priority $2. Everything: $ARGUMENTS ($3)";
    expect(expandCommand({ body }, '456 "very high"')).toBe('Review PR #456 with priority very high. Everything: 456 "very high" ()');
    expect(expandCommand({ body: "Write my standup notes." }, "for Monday")).toBe("Write my standup notes.\n\nARGUMENTS: for Monday");
    expect(expandCommand({ body: "Write my standup notes." }, "")).toBe("Write my standup notes.");
    expect(expandCommand({ body: "cost $10 for $1" }, "x")).toBe("cost $10 for x");
  });

  it("reports a malformed file by path and reason and loads the rest", () => {
    const { cwd, inkHome, claudeHome } = project();
    put(join(cwd, ".ink/commands/broken.md"), "---\ndescription: [unclosed\n  - stray: [\n---\nbody\n");
    put(join(cwd, ".ink/commands/empty.md"), "---\ndescription: nothing below\n---\n");
    put(join(cwd, ".ink/commands/weird.md"), "---\ncontext: thread\n---\nx\n");
    const s = new AgentSession({ cwd, inkHome, provider: createScriptedProvider([]), model: "m", interactive: true, approval: {}, trust: true, persist: false });
    const notices = s.notices.join("\n");
    expect(notices).toContain(`command file ${join(cwd, ".ink/commands/broken.md")} skipped: invalid YAML front matter`);
    expect(notices).toContain(`command file ${join(cwd, ".ink/commands/empty.md")} skipped: the file has no prompt`);
    expect(notices).toContain(`command file ${join(cwd, ".ink/commands/weird.md")} skipped: \`context\` "thread" is not supported; write \`context: fork\``);
    expect(s.commands.commands.map((c) => c.name)).toContain("/fix");
    void claudeHome;
  });

  it("every built-in of the TUI is a reserved name", () => {
    for (const c of SLASH_COMMANDS) expect(BUILTIN_COMMAND_NAMES).toContain(c.name);
  });

  it("a forked command runs as a new child (its profile's too) and its report goes to the main agent with the next prompt", async () => {
    const { cwd, inkHome } = project();
    put(join(inkHome, "agents/scout.md"), "---\nname: scout\ndescription: Read-only investigator\ntools: read, grep\n---\nYou are scout.\n");
    const provider = createScriptedProvider((r) => (isChild(r) ? { text: `CHILD-REPORT for ${firstPrompt(r)}` } : { text: "main answer" }));
    const s = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: true, approval: {}, trust: true, persist: true });
    const scan = s.commands.commands.find((c) => c.name === "/scan")!;
    const events: string[] = [];
    const result = await s.runCommandChild("/scan", expandCommand(scan, "src/auth"), { agent: scan.agent, onEvent: (e) => events.push(e.type === "subagent_start" ? `start:${e.profile}:${e.parentToolCallId}` : e.type), toolCallId: "cmd-1" });
    expect(result.isError).toBe(false);
    expect(result.content).toContain("CHILD-REPORT for Scan src/auth.");
    expect(events[0]).toBe("tool_start");
    expect(events).toContain("start:scout:cmd-1");
    expect(events.at(-1)).toBe("tool_end");
    expect(provider.requests.filter((r) => !isChild(r))).toHaveLength(0);
    await s.prompt("thanks");
    const main = provider.requests.find((r) => !isChild(r))!;
    expect(firstPrompt(main)).toMatch(/^<subagent-report child="[^"]+" profile="scout" status="ok">\nThe user ran the command \/scan as this subagent, with the prompt: "Scan src\/auth\."\nIts report:\nCHILD-REPORT/);
    s.close();
  });

  it("a prompt command's model: runs that request on it", async () => {
    const provider = createScriptedProvider([{ text: "a" }, { text: "b" }]);
    const s = new AgentSession({ cwd: temp("ink-cmd-m-"), inkHome: temp("ink-cmd-h-"), provider, model: "m", interactive: true, approval: {}, persist: false });
    await s.prompt("one", { model: "other-model" });
    await s.prompt("two");
    expect(provider.requests.map((r) => r.model)).toEqual(["other-model", "m"]);
  });
});
