import { describe, expect, it } from "vitest";
import type { AgentProfile } from "../../src/subagents/profiles/profiles.js";
import { runSlashCommand, SLASH_COMMANDS } from "./slash-commands.js";

const scout: AgentProfile = { name: "scout", description: "Read-only investigator", tools: ["read", "grep"], body: "", path: "/p/scout.md", source: "project", hash: "h" };
const ctx = { profiles: [scout], notices: ["agent profile /x/bad.md skipped: missing name"] };

describe("slash commands", () => {
  it("leaves ordinary prompts alone", () => {
    expect(runSlashCommand("where is login?", ctx)).toBeUndefined();
  });
  it("/help lists every command and the keys", () => {
    const out = runSlashCommand("/help", ctx);
    expect(out?.kind).toBe("lines");
    const text = out?.kind === "lines" ? out.lines.join("\n") : "";
    for (const c of SLASH_COMMANDS) expect(text).toContain(c.name);
    expect(text).toContain("Ctrl-C");
    for (const key of ["Tab", "Shift-Tab", "Ctrl-X stop", "Esc on the prompt stops the main agent's turn only: its running children go on in the background", "Enter open the child's full transcript", "r resume", "PgUp/PgDn", "Esc", "Ctrl-W", "Ctrl-A", "typing goes to the prompt"]) expect(text).toContain(key);
  });
  it("/help lists the budget question's keys with the other questions' keys", () => {
    const out = runSlashCommand("/help", ctx);
    const line = (out?.kind === "lines" ? out.lines : []).find((l) => /budget/i.test(l)) ?? "";
    for (const key of ["1 ", "2 ", "t ", "s or Esc stop"]) expect(line).toContain(key);
  });
  it("/help says what !command does: it runs without an approval question (only a deny rule refuses it)", () => {
    const out = runSlashCommand("/help", ctx);
    const line = (out?.kind === "lines" ? out.lines : []).find((l) => l.includes("!command")) ?? "";
    expect(line).toContain("without an approval question");
    expect(line).not.toMatch(/approval as for the model/);
  });
  it("/agents lists profiles and notices, or says none are loaded", () => {
    const out = runSlashCommand("/agents", { ...ctx, alwaysAllowed: ["bash"] });
    const text = out?.kind === "lines" ? out.lines.join("\n") : "";
    expect(text).toContain("scout — Read-only investigator (project; tools: read, grep)");
    expect(text).toContain("bad.md skipped");
    expect(text).toContain("Always allowed this session: bash");
    const none = runSlashCommand("/agents", { profiles: [], notices: [] });
    expect(none?.kind === "lines" && none.lines[0]).toMatch(/No agent profiles loaded/);
  });
  it("/agents after the person declined trust says the project's profiles were skipped for that reason", () => {
    const notice = "Skipped 2 project agent profile(s) in /p/.ink/agents: this project is not trusted. Run with --trust (or answer y to the trust question at start) to load them.";
    const none = runSlashCommand("/agents", { profiles: [], notices: [notice] });
    const text = none?.kind === "lines" ? none.lines.join("\n") : "";
    expect(text).toMatch(/^Project profiles were skipped: this project is not trusted/);
    expect(text).not.toContain("No agent profiles loaded (create");
    const withUser = runSlashCommand("/agents", { profiles: [{ ...scout, source: "user" }], notices: [notice] });
    expect(withUser?.kind === "lines" && withUser.lines).toContain("Project profiles were skipped: this project is not trusted. Restart Ink and answer y to the trust question, or run with --trust, to load them.");
  });
  it("/clear, /exit, /resume and /compact ask the app to act", () => {
    expect(runSlashCommand("/clear", ctx)).toEqual({ kind: "clear" });
    expect(runSlashCommand(" /EXIT ", ctx)).toEqual({ kind: "exit" });
    expect(runSlashCommand("/quit", ctx)).toEqual({ kind: "exit" });
    expect(runSlashCommand("/resume", ctx)).toEqual({ kind: "resume" });
    expect(runSlashCommand("/compact now", ctx)).toEqual({ kind: "compact" });
  });
  it("an unknown command is a clear error naming it", () => {
    expect(runSlashCommand("/foo bar", ctx)).toEqual({ kind: "lines", lines: ['unknown command "/foo" — type /help to see the commands.'], tone: "error" });
    // A misspelt one names the command that was meant.
    expect(runSlashCommand("/mdoe plan", ctx)).toEqual({ kind: "lines", lines: ['unknown command "/mdoe" — did you mean /mode? Type /help to see the commands.'], tone: "error" });
  });
});
