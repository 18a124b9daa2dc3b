import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider, type Script } from "../../src/providers/scripted.js";
import { gatedProjectFiles } from "../../src/subagents/profiles/trust.js";
import { firstPrompt, isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const put = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const skill = (name: string, description: string, body: string, extra = "") => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}\n`;

function session(cwd: string, inkHome: string, script: Script = [{ text: "ok" }], trust = false) {
  const provider = createScriptedProvider(script);
  const s = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: true, approval: { mode: "yolo" }, trust, persist: false });
  return { s, provider };
}

/** A project with a skill in each project folder, and one of the user's. */
function setup() {
  const cwd = temp("ink-skills-cwd-");
  const inkHome = temp("ink-skills-home-");
  put(join(cwd, ".claude/skills/pdf-forms/SKILL.md"), skill("pdf-forms", "Fills in PDF forms. Use when the user asks to fill a PDF.", "PDF-BODY: run scripts/fill.py on the form.", "allowed-tools: Read, Bash(python3:*)\nlicense: MIT\n"));
  put(join(cwd, ".claude/skills/pdf-forms/scripts/fill.py"), "print('fill')\n");
  put(join(cwd, ".claude/skills/pdf-forms/reference.md"), "# fields\n");
  put(join(cwd, ".ink/skills/changelog/SKILL.md"), skill("changelog", "Writes changelog entries in this repo's style.", "CHANGELOG-BODY: one line per change, newest first."));
  put(join(cwd, ".agents/skills/release/SKILL.md"), skill("release", "Cuts a release.", "RELEASE-BODY"));
  put(join(inkHome, "skills/mine/SKILL.md"), skill("mine", "The user's own skill.", "MINE-BODY"));
  return { cwd, inkHome };
}

describe("Agent Skills", () => {
  it("lists the user's skills always and the project's only when trusted; /skills names each source", () => {
    const { cwd, inkHome } = setup();
    const untrusted = session(cwd, inkHome).s;
    expect(untrusted.skills.skills.map((k) => k.name)).toEqual(["mine"]);
    expect(untrusted.system).toContain("- mine: The user's own skill.");
    expect(untrusted.system).not.toContain("pdf-forms");
    expect(untrusted.notices.join("\n")).toMatch(/Skipped 3 project skill\(s\) in \.agents\/skills, \.claude\/skills, \.ink\/skills: trust this project/);

    const trusted = session(cwd, inkHome, [{ text: "ok" }], true).s;
    expect(trusted.skills.skills.map((k) => `${k.name}:${k.source}`)).toEqual(["changelog:project", "mine:user", "pdf-forms:claude-project", "release:agents-project"]);
    expect(trusted.system).toContain("# Skills");
    expect(trusted.system).toContain("- pdf-forms: Fills in PDF forms. Use when the user asks to fill a PDF.");
    // The bodies are not in the prompt until used.
    expect(trusted.system).not.toContain("PDF-BODY");
    const lines = trusted.commandLines("/skills")!.join("\n");
    expect(lines).toContain(`pdf-forms — Fills in PDF forms. Use when the user asks to fill a PDF. (claude-project: ${join(cwd, ".claude/skills/pdf-forms/SKILL.md")})`);
    expect(lines).toContain(`mine — The user's own skill. (user: ${join(inkHome, "skills/mine/SKILL.md")})`);
    // SKILL.md files are gated: editing one asks for trust again.
    expect(gatedProjectFiles(cwd)).toEqual(expect.arrayContaining([".claude/skills/pdf-forms/SKILL.md", ".ink/skills/changelog/SKILL.md", ".agents/skills/release/SKILL.md"]));
    expect(gatedProjectFiles(cwd)).not.toContain(".claude/skills/pdf-forms/reference.md");
  });

  it("a project without skills has no skill tool and no Skills section", () => {
    const { s } = session(temp("ink-skills-none-"), temp("ink-skills-home-"));
    expect(s.tools.map((t) => t.name)).not.toContain("skill");
    expect(s.system).not.toContain("# Skills");
    expect(s.commandLines("/skills")!.join("\n")).toMatch(/No skills loaded/);
  });

  it("caps the roster like the agent list: 16 skills, clipped descriptions, then '… and N more'", () => {
    const cwd = temp("ink-skills-cap-");
    const inkHome = temp("ink-skills-home-");
    for (let i = 0; i < 20; i++) put(join(inkHome, `skills/s${String(i).padStart(2, "0")}/SKILL.md`), skill(`s${String(i).padStart(2, "0")}`, i === 0 ? "x".repeat(2000) : `skill ${i}`, "B"));
    const { s } = session(cwd, inkHome);
    expect(s.skills.skills).toHaveLength(20);
    const section = s.system.slice(s.system.indexOf("# Skills"));
    expect(section).toContain("- s15: skill 15");
    expect(section).not.toContain("- s16:");
    expect(section).toContain("… and 4 more");
    const first = section.split("\n").find((l) => l.startsWith("- s00: "))!;
    expect(Buffer.byteLength(first)).toBeLessThan(530);
    expect(first.endsWith("…")).toBe(true);
  });

  it("past 16 skills the model can still find each one: find_skill searches them all (not the hidden ones), and skill loads what it found", async () => {
    const cwd = temp("ink-skills-many-");
    const inkHome = temp("ink-skills-home-");
    const topics = ["pdf", "docx", "xlsx", "pptx", "canvas", "brand", "slack", "theme", "mcp", "webapp", "artifact", "algorithmic", "internal", "skill", "frontend", "backend"];
    for (let i = 0; i < 79; i++) put(join(inkHome, `skills/s${String(i).padStart(2, "0")}/SKILL.md`), skill(`s${String(i).padStart(2, "0")}`, `Helps with ${topics[i % 16]} work, variant ${i}.`, `BODY-${i}`));
    put(join(inkHome, "skills/z-kafka-rebalance/SKILL.md"), skill("z-kafka-rebalance", "Moves Kafka partitions between brokers.", "KAFKA-BODY"));
    put(join(inkHome, "skills/z-secret-kafka/SKILL.md"), skill("z-secret-kafka", "Kafka partitions, hidden.", "HIDDEN", "disable-model-invocation: true\n"));
    const script: Script = (r) =>
      r.messages.length === 1
        ? { toolCalls: [{ id: "f1", name: "find_skill", arguments: { query: "rebalance kafka partitions" } }] }
        : r.messages.length === 3
          ? { toolCalls: [{ id: "k1", name: "skill", arguments: { name: "z-kafka-rebalance" } }] }
          : { text: "done" };
    const { s, provider } = session(cwd, inkHome, script);
    expect(s.system).not.toContain("- z-kafka-rebalance:");
    expect(s.system).toContain("… and 64 more (not listed to keep this short; search them all with find_skill");
    await s.prompt("rebalance the topic");
    expect(provider.requests[0]!.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["skill", "find_skill"]));
    const found = (provider.requests[1]!.messages.at(-1) as ToolResultMessage).results[0]!;
    expect(found.content.split("\n")[0]).toBe("- z-kafka-rebalance: Moves Kafka partitions between brokers.");
    expect(found.content).not.toContain("z-secret-kafka");
    const loaded = (provider.requests[2]!.messages.at(-1) as ToolResultMessage).results[0]!;
    expect(loaded.content).toContain("KAFKA-BODY");
  });

  it("16 skills or fewer: no find_skill", () => {
    const { cwd, inkHome } = setup();
    expect(session(cwd, inkHome).s.tools.map((t) => t.name)).not.toContain("find_skill");
  });

  it("loads a skill's body and the files beside it when the model calls skill", async () => {
    const { cwd, inkHome } = setup();
    const { s, provider } = session(cwd, inkHome, (r) => (r.messages.length === 1 ? { toolCalls: [{ id: "k1", name: "skill", arguments: { name: "pdf-forms" } }] } : { text: "done" }), true);
    expect(provider.requests).toHaveLength(0);
    await s.prompt("fill the form");
    expect(provider.requests[0]!.tools.map((t) => t.name)).toContain("skill");
    expect(JSON.stringify(provider.requests[0]!.messages)).not.toContain("PDF-BODY");
    const result = (provider.requests[1]!.messages.at(-1) as ToolResultMessage).results[0]!;
    expect(result.isError).toBe(false);
    expect(result.content).toContain("PDF-BODY: run scripts/fill.py on the form.");
    expect(result.content).toContain(`Files beside SKILL.md, in ${join(cwd, ".claude/skills/pdf-forms")}`);
    expect(result.content).toContain("- reference.md");
    expect(result.content).toContain("- scripts/fill.py");
    expect(result.content).toContain("Read, Bash(python3:*)");
  });

  it("an unknown skill name is an error result that lists the skills", async () => {
    const { cwd, inkHome } = setup();
    const { s, provider } = session(cwd, inkHome, (r) => (r.messages.length === 1 ? { toolCalls: [{ id: "k1", name: "skill", arguments: { name: "nope" } }] } : { text: "done" }));
    await s.prompt("go");
    const result = (provider.requests[1]!.messages.at(-1) as ToolResultMessage).results[0]!;
    expect(result).toMatchObject({ isError: true, content: 'unknown skill "nope"; available skills: mine' });
  });

  it("a profile's skills: go into its child's system prompt (not the main one); children have the skill tool", async () => {
    const { cwd, inkHome } = setup();
    put(join(cwd, ".ink/agents/writer.md"), "---\nname: writer\ndescription: Writes release notes.\nskills: changelog, missing-one\n---\nYou write notes.\n");
    put(join(cwd, ".claude/agents/claude-writer.md"), "---\nname: claude-writer\ndescription: Claude Code shaped.\ntools: Read, Skill\nskills:\n  - pdf-forms\n---\nBody.\n");
    const { s, provider } = session(cwd, inkHome, (r) => {
      if (isChild(r)) return { text: `report ${firstPrompt(r)}` };
      return r.messages.length === 1 ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "notes", agent: "writer" } }, { id: "t2", name: "task", arguments: { prompt: "pdf", agent: "claude-writer" } }, { id: "t3", name: "task", arguments: { prompt: "plain" } }] } : { text: "merged" };
    }, true);
    await s.prompt("write notes");
    const child = (p: string) => provider.requests.find((r) => isChild(r) && firstPrompt(r) === p)!;
    expect(child("notes").system).toContain("# Skill: changelog (preloaded)\n\nCHANGELOG-BODY: one line per change, newest first.");
    expect(child("notes").system).not.toContain("PDF-BODY");
    expect(child("pdf").system).toContain("PDF-BODY");
    expect(child("pdf").tools.map((t) => t.name)).toEqual(["read", "skill"]);
    expect(child("plain").system).not.toContain("CHANGELOG-BODY");
    expect(child("plain").tools.map((t) => t.name)).toContain("skill");
    expect(provider.requests[0]!.system).not.toContain("CHANGELOG-BODY");
    expect(s.notices.join("\n")).toContain(`${join(cwd, ".ink/agents/writer.md")}: agent "writer" preloads skill "missing-one", which is not loaded`);
  });

  it("reports a malformed SKILL.md by path and reason, skips it, and loads the rest", () => {
    const { cwd, inkHome } = setup();
    put(join(inkHome, "skills/broken/SKILL.md"), "---\nname: broken\n---\nno description\n");
    put(join(inkHome, "skills/bad-yaml/SKILL.md"), "---\nname: [unclosed\ndescription: x\n---\n");
    put(join(inkHome, "skills/loose.md"), "# not a folder\n");
    mkdirSync(join(inkHome, "skills/empty-folder"));
    const { s } = session(cwd, inkHome, [{ text: "ok" }], true);
    expect(s.skills.skills.map((k) => k.name)).toEqual(["changelog", "mine", "pdf-forms", "release"]);
    const notices = s.notices.join("\n");
    expect(notices).toContain(`skill ${join(inkHome, "skills/broken/SKILL.md")} skipped: \`description\` is required`);
    expect(notices).toContain(`skill ${join(inkHome, "skills/bad-yaml/SKILL.md")} skipped: invalid YAML front matter`);
    expect(notices).toContain(`skill ${join(inkHome, "skills/loose.md")} skipped: a skill is a folder holding SKILL.md; move this file to ${join(inkHome, "skills/loose/SKILL.md")}`);
    expect(notices).toContain(`skill ${join(inkHome, "skills/empty-folder")} skipped: this skill folder has no SKILL.md`);
    expect(s.commandLines("/skills")!.join("\n")).toContain(`${join(inkHome, "skills/broken/SKILL.md")}: \`description\` is required`);
  });

  it("Ink's folder wins a name clash over Claude Code's, with a notice", () => {
    const { cwd, inkHome } = setup();
    put(join(cwd, ".ink/skills/pdf-forms/SKILL.md"), skill("pdf-forms", "Ink's own.", "INK-PDF"));
    const { s } = session(cwd, inkHome, [{ text: "ok" }], true);
    expect(s.skills.skills.find((k) => k.name === "pdf-forms")!.body).toBe("INK-PDF");
    expect(s.notices.join("\n")).toMatch(/Skill "pdf-forms" \(claude-project: .*\) is shadowed by the project skill/);
  });
});
