/**
 * Settings' `additionalDirectories` (Claude Code's `permissions.additionalDirectories`, issue #38
 * item 7): files in those directories are treated as in the project — read unasked, edited in
 * accept-edits — from Ink's settings and a trusted project's .claude/settings.json alike; an
 * entry that is not a directory is named in a notice. Real temp dirs, the real session rules.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSessionRules } from "../../src/host/session-rules.js";
import type { ApprovalOptions } from "../../src/core/approval.js";

const agent = { id: "main", label: "main", depth: 0 };
const call = (name: string, path: string) => ({ type: "toolCall" as const, id: "1", name, arguments: { path } });
const tool = (readOnly: boolean) => ({ readOnly }) as never;

/** A project beside a `shared` directory and an `elsewhere` one, and an empty INK_HOME. */
function layout() {
  const root = mkdtempSync(join(tmpdir(), "ink-extra-"));
  const project = join(root, "project");
  const inkHome = join(root, "home");
  for (const d of [project, join(root, "shared"), join(root, "elsewhere"), inkHome, join(project, ".claude")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(root, "shared", "notes.md"), "shared\n");
  writeFileSync(join(root, "elsewhere", "x.md"), "x\n");
  return { root, project, inkHome };
}

function rules(l: ReturnType<typeof layout>, approval: ApprovalOptions = {}, trusted = true) {
  const notices: string[] = [];
  const r = loadSessionRules({ inkHome: l.inkHome, cwd: l.project, trusted, sessionId: "s1", approval, transcriptPath: () => undefined, report: (m) => notices.push(m) });
  return { policy: r.policy, notices, settings: r.settings };
}

describe("additionalDirectories", () => {
  it("from a trusted project's .claude/settings.json: a file there is read unasked and edited in accept-edits; elsewhere still asks", async () => {
    const l = layout();
    writeFileSync(join(l.project, ".claude", "settings.json"), JSON.stringify({ permissions: { additionalDirectories: ["../shared"] } }));
    const { policy } = rules(l, { mode: "accept-edits" });
    expect(await policy(call("read", join(l.root, "shared", "notes.md")), agent, tool(true))).toEqual({ allow: true });
    expect(await policy(call("write", join(l.root, "shared", "new.md")), agent, tool(false))).toEqual({ allow: true });
    expect(await policy(call("read", join(l.root, "elsewhere", "x.md")), agent, tool(true))).toMatchObject({ allow: false });
    expect(await policy(call("write", join(l.root, "elsewhere", "y.md")), agent, tool(false))).toMatchObject({ allow: false, reason: expect.stringContaining("outside the working directory") });
  });

  it("from Ink's own settings.json (a path relative to the project, or absolute)", async () => {
    const l = layout();
    writeFileSync(join(l.inkHome, "settings.json"), JSON.stringify({ permissions: { additionalDirectories: [join(l.root, "elsewhere")] } }));
    const { policy, settings } = rules(l);
    expect(settings.effective.permissions?.additionalDirectories).toEqual([join(l.root, "elsewhere")]);
    expect(await policy(call("read", join(l.root, "elsewhere", "x.md")), agent, tool(true))).toEqual({ allow: true });
    expect(await policy(call("read", join(l.root, "shared", "notes.md")), agent, tool(true))).toMatchObject({ allow: false });
  });

  it("an untrusted project's list is not read", async () => {
    const l = layout();
    writeFileSync(join(l.project, ".claude", "settings.json"), JSON.stringify({ permissions: { additionalDirectories: ["../shared"] } }));
    const { policy } = rules(l, {}, false);
    expect(await policy(call("read", join(l.root, "shared", "notes.md")), agent, tool(true))).toMatchObject({ allow: false });
  });

  it("an entry that is not a directory is left out with a notice naming it and the file", () => {
    const l = layout();
    writeFileSync(join(l.project, ".claude", "settings.json"), JSON.stringify({ permissions: { additionalDirectories: ["../missing"] } }));
    const { notices } = rules(l);
    expect(notices.join("\n")).toMatch(/"permissions.additionalDirectories" entry ".*missing" \(.*settings\.json\) is not a directory/);
  });

  it("a malformed list in Ink's settings stops with the fix", () => {
    const l = layout();
    writeFileSync(join(l.inkHome, "settings.json"), JSON.stringify({ permissions: { additionalDirectories: "../shared" } }));
    expect(() => rules(l)).toThrow(/additionalDirectories.*must be a list of directories/);
  });
});
