import { describe, expect, it } from "vitest";
import { isLooseTextError, lineFrontMatter, parseYamlFrontMatter } from "../../src/context/front-matter.js";
import { parseSkill } from "../../src/skills/skill-parse.js";

function yamlError(text: string): unknown {
  try {
    parseYamlFrontMatter(text);
  } catch (error) {
    return error;
  }
  throw new Error("expected a YAML error");
}

describe("front matter of project Markdown files", () => {
  it("reads YAML and refuses the engines that would run code from the file", () => {
    expect(parseYamlFrontMatter("---\nname: a\nn: 2\n---\nbody\n")).toEqual({ data: { name: "a", n: 2 }, content: "body\n" });
    expect(() => parseYamlFrontMatter('---js\n{ name: (() => "x")() }\n---\nbody')).toThrow(/only YAML front matter is supported/);
  });

  it("tells loose text (`: ` in a value, `[a] [b]`) from broken YAML (an unclosed `[`)", () => {
    expect(isLooseTextError(yamlError("---\ndescription: Use this: when x\n---\nb"))).toBe(true);
    expect(isLooseTextError(yamlError("---\nargument-hint: [pr-number] [priority]\n---\nb"))).toBe(true);
    expect(isLooseTextError(yamlError("---\nname: [unclosed\ndescription: x\n---\n"))).toBe(false);
  });

  it("reads line by line: only the given keys open a field, other lines continue it, `- x` lines make a list, booleans and numbers typed", () => {
    const text = "---\n# a comment\nname: reviewer\ndescription: Use this: when asked\nuser: this line is part of the description\ntools:\n  - read\n  - grep\nbackground: true\nmaxTurns: 12\n---\nBody here\n";
    expect(lineFrontMatter(text, ["name", "description", "tools", "background", "maxTurns"])).toEqual({
      data: { name: "reviewer", description: "Use this: when asked\nuser: this line is part of the description", tools: ["read", "grep"], background: true, maxTurns: 12 },
      content: "Body here\n",
    });
    expect(lineFrontMatter("---\nname: a\nno closing line\n")).toBeUndefined();
  });

  it("a SKILL.md with an unquoted `: ` in its description loads (as Claude Code reads it)", () => {
    const r = parseSkill("---\nname: pdf-forms\ndescription: Fills PDF forms. Use when: the user asks to fill a PDF\n---\nSteps.\n", { path: "/x/pdf-forms/SKILL.md", dir: "/x/pdf-forms", source: "user" } as Parameters<typeof parseSkill>[1]);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.skill.description).toBe("Fills PDF forms. Use when: the user asks to fill a PDF");
  });
});
