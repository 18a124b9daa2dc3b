import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSkills, SKILL_MAX_CHARS } from "../../src/skills/skills.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const skill = (name: string, body = "Do it.") => `---\nname: ${name}\ndescription: the ${name} skill\n---\n${body}\n`;

function homes() {
  const root = temp("ink-skill-files-");
  const o = { cwd: join(root, "project"), inkHome: join(root, "ink"), claudeHome: join(root, "claude"), agentsHome: join(root, "agents") };
  mkdirSync(o.cwd);
  return { root, ...o };
}

function put(dir: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), text);
  return join(dir, "SKILL.md");
}

describe("SKILL.md files are read as context files are", () => {
  it("a SKILL.md in a trusted project that links to a file outside the project is refused, naming both", () => {
    const h = homes();
    writeFileSync(join(h.root, "outside.md"), skill("leak", "the person's private notes"));
    mkdirSync(join(h.cwd, ".ink", "skills", "leak"), { recursive: true });
    symlinkSync(join(h.root, "outside.md"), join(h.cwd, ".ink", "skills", "leak", "SKILL.md"));
    put(join(h.cwd, ".ink", "skills", "fine"), skill("fine"));
    const load = loadSkills({ ...h, trusted: true });
    expect(load.skills.map((s) => s.name)).toEqual(["fine"]);
    expect(load.problems).toEqual([{ path: join(h.cwd, ".ink", "skills", "leak", "SKILL.md"), reason: expect.stringContaining(`resolves to ${join(h.root, "outside.md")}, outside the project ${h.cwd}`) }]);
    // A link inside the project is fine; the user's own skills may link anywhere.
    mkdirSync(join(h.cwd, ".ink", "skills", "inner"));
    writeFileSync(join(h.cwd, "inner.md"), skill("inner"));
    symlinkSync(join(h.cwd, "inner.md"), join(h.cwd, ".ink", "skills", "inner", "SKILL.md"));
    mkdirSync(join(h.inkHome, "skills", "mine"), { recursive: true });
    symlinkSync(join(h.root, "outside.md"), join(h.inkHome, "skills", "mine", "SKILL.md"));
    expect(loadSkills({ ...h, trusted: true }).skills.map((s) => s.name).sort()).toEqual(["fine", "inner", "leak"]);
  });

  it("a FIFO named SKILL.md (user or project) is a problem, not a hang", () => {
    const h = homes();
    for (const dir of [join(h.inkHome, "skills", "pipe"), join(h.cwd, ".claude", "skills", "pipe2")]) {
      mkdirSync(dir, { recursive: true });
      execFileSync("mkfifo", [join(dir, "SKILL.md")]);
    }
    put(join(h.inkHome, "skills", "ok"), skill("ok"));
    const load = loadSkills({ ...h, trusted: true });
    expect(load.skills.map((s) => s.name)).toEqual(["ok"]);
    expect(load.problems.map((p) => p.reason)).toEqual([expect.stringContaining("not a regular file"), expect.stringContaining("not a regular file")]);
  });

  it("a SKILL.md over the limit is skipped with its size — a 1 GB one as cheaply as a small one", () => {
    const h = homes();
    const big = put(join(h.inkHome, "skills", "big"), skill("big", "x".repeat(SKILL_MAX_CHARS)));
    const huge = put(join(h.inkHome, "skills", "huge"), skill("huge"));
    truncateSync(huge, 1024 ** 3); // sparse: costs no disk
    put(join(h.inkHome, "skills", "small"), skill("small"));
    const load = loadSkills({ ...h, trusted: false });
    expect(load.skills.map((s) => s.name)).toEqual(["small"]);
    expect(load.problems).toEqual([
      { path: big, reason: expect.stringMatching(/SKILL\.md is \d+ bytes, over the 256 KB a skill may hold/) },
      { path: huge, reason: expect.stringContaining(`SKILL.md is ${1024 ** 3} bytes`) },
    ]);
  });
});
