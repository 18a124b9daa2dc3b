import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import { firstPrompt, isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const put = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

/** A trusted project with Claude Code command files in their documented shapes. */
function withCommands(script: (r: ModelRequest) => ScriptedTurn): AppHarness {
  return renderApp(script, {
    session: { trust: true },
    before: ({ cwd, inkHome }) => {
      put(join(cwd, ".claude/commands/frontend/review.md"), "---\ndescription: Review a pull request\nargument-hint: [pr-number] [priority]\n---\nReview PR #$1 with priority $2. Everything: $ARGUMENTS\n");
      put(join(cwd, ".claude/commands/audit.md"), "---\ndescription: Audit for security problems\ncontext: fork\n---\nAudit $ARGUMENTS for security problems.\n");
      put(join(cwd, ".ink/commands/scan.md"), "---\ndescription: Scan with scout\nagent: scout\n---\nScan $1 please.\n");
      put(join(inkHome, "commands/clear.md"), "Not the built-in.\n");
    },
  });
}

describe("App: slash-command files", () => {
  it("lists command files in the / menu with their description and hint; the built-in wins a clash, said once", async () => {
    h = withCommands(() => ({ text: "ok" }));
    const start = await waitForFrame(h.app.lastFrame, (f) => f.includes("is named /clear, a built-in command"), { what: "the clash notice" });
    expect(start.split("is named /clear").length).toBe(2);
    h.app.stdin.write("/rev");
    // Named as Claude Code names a sub-folder command: /review, its folder shown as "(claude-project:frontend)".
    const menu = await waitForFrame(h.app.lastFrame, (f) => f.includes("/review"), { what: "the command in the menu" });
    expect(menu).toContain("Review a pull request [pr-number] [priority] (claude-project:frontend)");
    h.app.stdin.write("\u007f\u007f\u007fau");
    const audit = await waitForFrame(h.app.lastFrame, (f) => f.includes("/audit"), { what: "the forked command in the menu" });
    expect(audit).toContain("Audit for security problems (claude-project · runs as a child)");
  });

  it("a command's prompt, arguments substituted, goes to the main agent", async () => {
    h = withCommands((r) => ({ text: `MAIN-ANSWER to ${firstPrompt(r).slice(0, 20)}` }));
    await typeAndSubmit(h.app, "/review 456 high");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("MAIN-ANSWER"), { what: "the answer" });
    expect(firstPrompt(h.provider.requests[0]!)).toBe("Review PR #456 with priority high. Everything: 456 high");
  });

  it("a forked command runs as a child and shows as its pane; no main turn is started for it", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h = withCommands((r) => (isChild(r) ? { text: `SCOUT-REPORT on ${firstPrompt(r)}`, waitFor: gate } : { text: "main" }));
    await typeAndSubmit(h.app, "/scan src/auth");
    const live = await waitForFrame(h.app.lastFrame, (f) => f.includes("SCOUT-REPORT") && /scout · (.+ · )?running/.test(f), { what: "the child's live pane" });
    expect(live).toContain("/scan src/auth");
    release();
    const done = await waitForFrame(h.app.lastFrame, (f) => f.includes("/scan's report goes to the main agent"), { what: "the finished child" });
    expect(done).toMatch(/✓ scout · (.+ · )?1 turn .* — SCOUT-REPORT on Scan src/); // the gist is cut to make room for the description
    expect(h.provider.requests.filter((r) => !isChild(r))).toHaveLength(0);
    expect(firstPrompt(h.provider.requests.find(isChild)!)).toBe("Scan src/auth please.");
  });
});
