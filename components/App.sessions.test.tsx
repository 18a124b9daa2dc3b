import { afterEach, describe, expect, it } from "vitest";
import { SUMMARISER_SYSTEM_PROMPT } from "../src/core/compaction.js";
import { createScriptedProvider } from "../src/providers/scripted.js";
import { SessionStore } from "../src/session/store.js";
import type { ModelRequest } from "../src/protocol/provider.js";
import { renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame, waitUntil } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const lastUser = (r: ModelRequest) => {
  const m = r.messages.at(-1);
  return m?.role === "user" && typeof m.content === "string" ? m.content : "";
};

describe("App: /compact", () => {
  it("says when there is nothing to compact, then summarises older history and reports how many messages", async () => {
    h = renderApp((r) => (r.system === SUMMARISER_SYSTEM_PROMPT ? { text: "SUMMARY of the talk" } : { text: `answer to ${lastUser(r)}` }));
    await typeAndSubmit(h.app, "/compact");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("nothing to compact"), { what: "the empty-history message" });
    await typeAndSubmit(h.app, "first question");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("answer to first question") && f.includes("Enter send"));
    await typeAndSubmit(h.app, "second question");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("answer to second question") && f.includes("Enter send"));
    await typeAndSubmit(h.app, "/compact");
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("compacted: 2 messages summarised"), { what: "the compaction result" });
    expect(frame.match(/compacted:/g)).toHaveLength(1); // the manual compaction's event adds no second line
    expect(h.session.history[0]).toMatchObject({ role: "user", content: expect.stringContaining("SUMMARY of the talk") });
    expect(h.session.history).toHaveLength(3);
  });
});

describe("App: /resume", () => {
  it("lists the directory's earlier main sessions and switches to the chosen one, showing its history", async () => {
    h = renderApp((r) => ({ text: `continued: ${r.messages.length} messages sent` }));
    const before = createScriptedProvider([{ text: "EARLIER ANSWER about the cache", usage: { input: 3000, cacheRead: 1000, output: 120 } }]);
    const earlier = h.otherSession(before);
    await earlier.prompt("EARLIER QUESTION about the cache");
    earlier.close();
    await typeAndSubmit(h.app, "/resume");
    const picker = await waitForFrame(h.app.lastFrame, (f) => f.includes("Resume a session"), { what: "the picker" });
    expect(picker).toMatch(/› +\d+s +[0-9a-f]{6} +EARLIER QUESTION about the cache/);
    expect(picker).toContain("Enter open the session");
    h.app.stdin.write("\r");
    await waitUntil(() => h!.switched.length === 1, { what: "the session switch" });
    expect(h.switched[0]!.sessionId).toBe(earlier.sessionId);
    const resumed = await waitForFrame(h.app.lastFrame, (f) => f.includes("EARLIER ANSWER about the cache") && f.includes("Ask Ink"), { what: "the resumed history" });
    expect(resumed).toContain("› EARLIER QUESTION about the cache");
    expect(resumed).not.toContain("Resume a session");
    // The loaded history's token use shows at once (context: the last call's input incl. cache).
    expect(resumed).toContain("ctx 2% of 200k · ↑4.0k ↓120 tokens");
    await typeAndSubmit(h.app, "and now?");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("continued: 3 messages sent"), { what: "the continued conversation" });
    expect(h.provider.requests.at(-1)!.messages[0]).toEqual({ role: "user", content: "EARLIER QUESTION about the cache" });
  });

  it("with no other session /resume says so and opens no picker: what is typed next goes to the prompt", async () => {
    h = renderApp(() => ({ text: "x" }));
    await typeAndSubmit(h.app, "/resume");
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("no other saved sessions for this directory"), { what: "the notice" });
    expect(frame).not.toContain("Resume a session");
    h.app.stdin.write("typed next");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("› typed next"), { what: "the typing on the prompt" });
    expect(h.switched).toEqual([]);
  });
});

describe("App: openResumePicker (ink --resume without an id)", () => {
  const saveEarlier = ({ cwd, inkHome }: { cwd: string; inkHome: string }) => {
    const w = new SessionStore(inkHome).create({ kind: "main", cwd, provider: "scripted", model: "m", fingerprint: "f", toolNames: [], prompt: "EARLIER QUESTION" });
    w.append({ type: "message", message: { role: "user", content: "EARLIER QUESTION" } });
  };

  it("opens the picker at start with the directory's saved sessions", async () => {
    h = renderApp(() => ({ text: "x" }), { openResumePicker: true, before: saveEarlier });
    const picker = await waitForFrame(h.app.lastFrame, (f) => f.includes("Resume a session"), { what: "the picker at start" });
    expect(picker).toMatch(/› +\d+s +[0-9a-f]{6} +EARLIER QUESTION/);
  });

  it("says so when there is no session to resume, and leaves the prompt ready", async () => {
    h = renderApp(() => ({ text: "x" }), { openResumePicker: true });
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("no earlier saved sessions"), { what: "the notice" });
    expect(frame).not.toContain("Resume a session");
    expect(frame).toContain("Enter send");
  });
});

describe("App: a session that cannot be saved", () => {
  it("shows one warning in the transcript and 'not saved (in memory)' in the status bar; the conversation goes on", async () => {
    const { writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    h = renderApp((r) => ({ text: `answer to ${lastUser(r)}` }), { before: ({ inkHome }) => writeFileSync(join(inkHome, "sessions"), "a file where the directory should be") });
    expect(h.app.lastFrame()).not.toContain("not saved");
    await typeAndSubmit(h.app, "first question");
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("answer to first question") && f.includes("Enter send"));
    expect(frame).toContain("not saved (in memory)");
    expect(frame.match(/warning: session file/g)).toHaveLength(1);
    expect(frame.replace(/\s+/g, " ")).toMatch(/cannot be created \(EEXIST: \S+sessions \(or a parent\) is a file, not a directory\); the session goes on in memory/);
    await typeAndSubmit(h.app, "second question");
    const next = await waitForFrame(h.app.lastFrame, (f) => f.includes("answer to second question") && f.includes("Enter send"));
    expect(next.match(/warning: session file/g)).toHaveLength(1);
    expect(next).toContain("not saved (in memory)");
  });
});
