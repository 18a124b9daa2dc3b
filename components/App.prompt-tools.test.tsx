import { afterEach, describe, expect, it } from "vitest";
import { resumeCommand } from "../src/host/launch-command.js";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelRequest } from "../src/protocol/provider.js";
import { renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame, waitUntil } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const TAB = "\t";
const DOWN = "\u001b[B";
const text = (r: ModelRequest) => {
  const m = r.messages.filter((x) => x.role === "user").at(-1);
  if (!m || m.role !== "user") return "";
  return typeof m.content === "string" ? m.content : m.content.map((b) => ("text" in b ? b.text : "")).join("");
};

describe("App: the prompt's command menu, @ files, ! commands, /model, /cost and /clear", () => {
  it("/ opens the command menu with descriptions; ↓ and Tab complete the chosen command, Enter runs it", async () => {
    h = renderApp(() => ({ text: "ok" }));
    h.app.stdin.write("/co");
    const menu = await waitForFrame(h.app.lastFrame, (f) => f.includes("/compact") && f.includes("/config"), { what: "the menu" });
    expect(menu).toContain("summarise older history now");
    expect(menu).toContain("Tab completes");
    expect(menu).not.toContain("/agents");
    h.app.stdin.write(DOWN);
    h.app.stdin.write(TAB);
    // The second choice (in /help order: /compact, then /config…) is in the box; the menu is closed.
    await waitForFrame(h.app.lastFrame, (f) => /› \/config\s/.test(f) && !f.includes("Tab completes"), { what: "the completed command" });
    h.app.stdin.write("\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Settings") || f.includes("settings"), { what: "/config's report" });
    // Enter on a partial command runs the selected one.
    h.app.stdin.write("/cos");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("by agent"), { what: "the /cost choice" });
    h.app.stdin.write("\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Session:") && f.includes("  main"), { what: "the /cost lines" });
    expect(h.provider.requests).toHaveLength(0);
  });

  it("an exact command name typed wins over a longer one the menu would preselect: /mode + Enter runs /mode, not /model", async () => {
    h = renderApp(() => ({ text: "ok" }));
    h.app.stdin.write("/mode");
    // The menu stays open (/model also starts with it), with the typed name first and selected.
    const menu = await waitForFrame(h.app.lastFrame, (f) => f.includes("› /mode ") && f.includes("/model") && f.includes("Tab completes"), { what: "the menu with /mode selected" });
    expect(menu.indexOf("/mode ")).toBeLessThan(menu.indexOf("/model"));
    h.app.stdin.write("\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("permission mode: accept-edits"), { what: "/mode's switch" });
    expect(h.app.lastFrame()).not.toContain(`model: ${h.session.model}`);
    // Sent in one chunk with its Enter (tmux, a paste), the same; ↓ still picks /model.
    h.app.stdin.write("/mode\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("permission mode: plan"), { what: "the second /mode" });
    h.app.stdin.write("/mode");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Tab completes"), { what: "the menu" });
    h.app.stdin.write(DOWN);
    h.app.stdin.write("\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes(`model: ${h!.session.model}`), { what: "/model chosen with ↓" });
    expect(h.session.permissionMode).toBe("plan");
  });

  it("@ completes a path of the working tree (gitignored files left out); the sent message carries the file", async () => {
    h = renderApp(() => ({ text: "read it" }), {
      before: ({ cwd }) => {
        mkdirSync(join(cwd, "src"));
        writeFileSync(join(cwd, "src", "widget.ts"), "export const WIDGET = 42;\n");
        writeFileSync(join(cwd, "src", "widget.secret.ts"), "hidden\n");
        writeFileSync(join(cwd, ".gitignore"), "*.secret.ts\n");
      },
    });
    h.app.stdin.write("explain @wid");
    const menu = await waitForFrame(h.app.lastFrame, (f) => f.includes("@src/widget.ts"), { what: "the file menu" });
    expect(menu).not.toContain("widget.secret");
    h.app.stdin.write(TAB);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("› explain @src/widget.ts") && !f.includes("Enter inserts"), { what: "the completed path" });
    h.app.stdin.write("please\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("read it"), { what: "the answer" });
    const sent = text(h.provider.requests[0]!);
    expect(sent.startsWith("explain @src/widget.ts please")).toBe(true);
    expect(sent).toContain('<attached-file path="src/widget.ts">\nexport const WIDGET = 42;\n</attached-file>');
    expect(h.app.lastFrame()).toContain("📎 attached src/widget.ts (1 line)");
  });

  it("!command runs without asking (default mode); its output is in the next request, and the transcript shows it", async () => {
    h = renderApp(() => ({ text: "seen" }));
    await typeAndSubmit(h.app, "!echo shell-said-$((6*7))");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("its output goes to the model with your next message"), { what: "the command's end" });
    expect(h.app.frames.some((f) => f.includes("Allow bash"))).toBe(false);
    expect(h.approvals.current()).toBeUndefined();
    expect(h.provider.requests).toHaveLength(0);
    await typeAndSubmit(h.app, "what did it print?");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("seen"), { what: "the answer" });
    const sent = text(h.provider.requests[0]!);
    expect(sent).toContain("shell-said-42");
    expect(sent.endsWith("what did it print?")).toBe(true);
    // Only once: the next prompt does not carry it again.
    await typeAndSubmit(h.app, "again");
    await waitUntil(() => h!.provider.requests.length === 2, { what: "the second request" });
    expect(text(h.provider.requests[1]!)).toBe("again");
  });

  it("a !command a deny rule covers is not run; the refusal names the rule and its settings file, and the model learns it", async () => {
    h = renderApp(() => ({ text: "noted" }), {
      before: ({ inkHome }) => writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ permissions: { deny: ["bash(touch *)"] } })),
    });
    await typeAndSubmit(h.app, "!touch made-by-shell");
    const rule = `denied by the rule bash(touch *) in ${join(h.inkHome, "settings.json")}`;
    // Said in full (the tool line's one-line result cuts it), wrapped at the width.
    await waitForFrame(h.app.lastFrame, (f) => f.replace(/\s+/g, " ").includes(`✗ not run: bash command "touch made-by-shell" is ${rule}`), { what: "the refusal naming the rule" });
    await waitForFrame(h.app.lastFrame, (f) => f.includes("the refusal goes to the model with your next message"), { what: "the end of the command" });
    expect(h.app.frames.some((f) => f.includes("Allow bash"))).toBe(false);
    await typeAndSubmit(h.app, "ok?");
    await waitUntil(() => h!.provider.requests.length === 1, { what: "the request" });
    expect(text(h.provider.requests[0]!)).toContain(`tool call refused: bash command "touch made-by-shell" is ${rule}`);
    expect(existsSync(join(h.cwd, "made-by-shell"))).toBe(false);
  });

  it("/model switches the model of the next request; an unknown one is refused by name", async () => {
    h = renderApp(() => ({ text: "fine" }));
    await typeAndSubmit(h.app, "/model");
    await waitForFrame(h.app.lastFrame, (f) => f.includes(`model: ${h!.session.model}`), { what: "the model shown" });
    await typeAndSubmit(h.app, "/model other-model-9");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("model switched to other-model-9"), { what: "the switch" });
    await typeAndSubmit(h.app, "hello");
    await waitUntil(() => h!.provider.requests.length === 1, { what: "the request" });
    expect(h.provider.requests[0]!.model).toBe("other-model-9");
  });

  it("/clear starts a new conversation: the next request has no earlier history, the old session stays saved", async () => {
    h = renderApp(() => ({ text: "answer" }));
    await typeAndSubmit(h.app, "first conversation");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("answer") && !f.includes("working…"), { what: "the first answer" });
    const oldId = h.session.sessionId;
    await typeAndSubmit(h.app, "/clear");
    await waitForFrame(h.app.lastFrame, (f) => f.replace(/ *\n/g, " ").includes(`the previous one is saved: ${resumeCommand(oldId)}`), { what: "the new conversation" });
    expect(h.switched).toHaveLength(1);
    expect(h.switched[0]!.sessionId).not.toBe(oldId);
    await typeAndSubmit(h.app, "second conversation");
    await waitUntil(() => h!.provider.requests.length === 2, { what: "the second request" });
    expect(h.provider.requests[1]!.messages).toEqual([{ role: "user", content: "second conversation" }]);
    expect(h.session.store!.list({ kind: "main" }).map((s) => s.id)).toContain(oldId);
  });
  it("/clear keeps the model and the permission mode chosen in the conversation it replaces", async () => {
    h = renderApp(() => ({ text: "answer" }));
    await typeAndSubmit(h.app, "/model scripted-other");
    await typeAndSubmit(h.app, "/mode plan");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("⏵ plan"), { what: "plan mode" });
    expect(h.session.model).toBe("scripted-other");
    await typeAndSubmit(h.app, "/clear");
    await waitUntil(() => h!.switched.length === 1, { what: "the new conversation" });
    expect(h.switched[0]!.model).toBe("scripted-other");
    expect(h.switched[0]!.permissionMode).toBe("plan");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("⏵ plan"), { what: "plan mode in the new conversation" });
    await typeAndSubmit(h.app, "hello again");
    await waitUntil(() => h!.provider.requests.length === 1, { what: "the request" });
    expect(h.provider.requests[0]!.model).toBe("scripted-other");
  });
});

describe("App: permission mode and saved rules", () => {
  it("Alt-M steps the permission mode (shown in the status bar); /mode plan refuses bash without asking", async () => {
    let calls = 0;
    h = renderApp(() => (++calls === 1 ? { toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] } : { text: "plan noted" }));
    h.app.stdin.write("\u001bm");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("⏵ accept-edits") && f.includes("permission mode: accept-edits"), { what: "accept-edits" });
    expect(h.session.permissionMode).toBe("accept-edits");
    await typeAndSubmit(h.app, "/mode plan");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("⏵ plan"), { what: "plan mode" });
    await typeAndSubmit(h.app, "/mode sideways");
    await waitForFrame(h.app.lastFrame, (f) => f.includes('/mode: unknown mode "sideways"'), { what: "the refusal" });
    await typeAndSubmit(h.app, "run it");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("plan noted"), { what: "the answer" });
    expect(h.app.lastFrame()).not.toContain("Allow bash");
    const results = h.provider.requests[1]!.messages.at(-1) as { results: Array<{ isError: boolean; content: string }> };
    expect(results.results[0]).toMatchObject({ isError: true });
  });

  it("s saves the rule; a rule that cannot be saved still allows the call and says why in the transcript", async () => {
    let calls = 0;
    const saved: string[] = [];
    h = renderApp(() => (++calls === 1 ? { toolCalls: [{ name: "bash", arguments: { command: "git status" } }] } : { text: "done" }), {
      broker: { saveRule: (rule) => (saved.push(rule), (() => { throw new Error("settings.json is read-only"); })()) },
    });
    await typeAndSubmit(h.app, "status please");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Allow bash"), { what: "the approval" });
    h.app.stdin.write("s");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Enter confirms"), { what: "the confirmation" });
    h.app.stdin.write("\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("was not saved: settings.json is read-only"), { what: "the save problem" });
    expect(saved).toEqual(["bash(git status)"]);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("done"), { what: "the call allowed and the answer" });
  });
});
