import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeProjectContext, loadProjectContext } from "../../src/context/project-context.js";
import { importPaths, MAX_IMPORT_DEPTH } from "../../src/context/imports.js";
import { AgentSession } from "../../src/host/agent-session.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

function repo(): string {
  const dir = temp("ink-ctx-");
  execFileSync("git", ["init", "-q", dir]);
  return dir;
}

describe("@path imports in context files", () => {
  it("finds @paths outside code, ignoring e-mail addresses", () => {
    const text = ["See @docs/style.md and @./a.md, then @../up.md.", "Mail me@example.com", "`@in/code.md` stays", "```", "@fenced.md", "```", "@~/notes.md"].join("\n");
    expect(importPaths(text)).toEqual(["docs/style.md", "./a.md", "../up.md", "~/notes.md"]);
  });

  it("imports relative to the importing file, nested, each once, shown in /context with who imported them", () => {
    const root = repo();
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "CLAUDE.md"), "ROOT. Style: @docs/style.md. Ping @someone.");
    writeFileSync(join(root, "docs", "style.md"), "STYLE, see also @../CLAUDE.md and @testing.md");
    writeFileSync(join(root, "docs", "testing.md"), "TESTING with vitest");
    const ctx = loadProjectContext({ cwd: root, inkHome: temp("ink-home-") });
    expect(ctx.files.map((f) => [f.path, f.importedBy])).toEqual([
      [join(root, "CLAUDE.md"), undefined],
      [join(root, "docs", "style.md"), join(root, "CLAUDE.md")],
      [join(root, "docs", "testing.md"), join(root, "docs", "style.md")],
    ]);
    expect(ctx.text).toContain(`## ${join(root, "docs", "testing.md")} (imported by ${join(root, "docs", "style.md")})\n\nTESTING with vitest`);
    expect(describeProjectContext(ctx).join("\n")).toContain(`${join(root, "docs", "style.md")} (project, imported by ${join(root, "CLAUDE.md")}`);
  });

  it(`follows at most ${MAX_IMPORT_DEPTH} hops and never reads outside the repository, links resolved`, () => {
    const root = repo();
    const outside = temp("ink-outside-");
    writeFileSync(join(outside, "secret.md"), "SECRET");
    symlinkSync(join(outside, "secret.md"), join(root, "linked.md"));
    writeFileSync(join(root, "AGENTS.md"), "TOP @f1.md @linked.md @../" + outside.split("/").pop() + "/secret.md");
    for (let i = 1; i <= 7; i++) writeFileSync(join(root, `f${i}.md`), `FILE${i} @f${i + 1}.md`);
    const ctx = loadProjectContext({ cwd: root, inkHome: temp("ink-home-") });
    expect(ctx.text).toContain("FILE5");
    expect(ctx.text).not.toContain("FILE6");
    expect(ctx.text).not.toContain("SECRET");
    expect(ctx.notes).toContain(`project context: ${join(root, "f5.md")} imports @f6.md, deeper than ${MAX_IMPORT_DEPTH} hops of imports; it was not read`);
    expect(ctx.notes.filter((n) => n.includes("outside") && n.includes("secret.md"))).toHaveLength(2);
  });

  it("reads each directory's CLAUDE.local.md after its shared file, and /context shows it as local", () => {
    const root = repo();
    writeFileSync(join(root, "CLAUDE.md"), "SHARED");
    writeFileSync(join(root, "CLAUDE.local.md"), "MY SANDBOX URL");
    const s = new AgentSession({ cwd: root, inkHome: temp("ink-home-"), provider: createScriptedProvider([]), model: "m", interactive: false, approval: {}, persist: false });
    expect(s.system.indexOf("SHARED")).toBeLessThan(s.system.indexOf("MY SANDBOX URL"));
    expect(s.commandLines("/context")!.join("\n")).toContain(`${join(root, "CLAUDE.local.md")} (local, 14 characters)`);
    s.close();
  });
});
