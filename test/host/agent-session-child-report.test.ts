import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { formatChildReportNote, splitChildReportNotes, withChildReportNotes } from "../../src/protocol/child-report-note.js";
import { userText, type UserMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { toApiMessages } from "../../src/providers/anthropic-convert.js";
import { isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

function setup() {
  const provider = createScriptedProvider((r) => {
    if (isChild(r)) return { text: r.messages.length > 1 ? "SECOND-REPORT: flushed in src/cache.ts" : "FIRST-REPORT: cache in src/cache.ts" };
    const last = r.messages.at(-1)!;
    if (last.role === "toolResult") return { text: "main done" };
    return userText(last as UserMessage).endsWith("go") ? { toolCalls: [{ name: "task", arguments: { prompt: "dig" } }] } : { text: "thanks" };
  });
  const cwd = temp("ink-cwd-");
  const inkHome = temp("ink-home-");
  const session = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: true, approval: {} });
  return { provider, session, cwd, inkHome };
}

describe("a child resumed by the person reports to the main agent", () => {
  it("its report is queued and carried by the next main request, in the same user message, and saved", async () => {
    const { provider, session } = setup();
    await session.prompt("go");
    const childId = session.store!.list({ kind: "child" })[0]!.id;
    await session.resumeChild(childId, "and the flush?", { toolCallId: "ui-resume-1" });
    expect(session.pendingChildReports).toMatchObject([{ childId, prompt: "and the flush?", status: "ok", report: expect.stringContaining("SECOND-REPORT") }]);
    const mainBefore = provider.requests.filter((r) => !isChild(r)).length;

    await session.prompt("what did it find?");
    const main = provider.requests.filter((r) => !isChild(r));
    expect(main).toHaveLength(mainBefore + 1);
    const request = main.at(-1)!;
    const last = request.messages.at(-1)!;
    expect(last.role).toBe("user");
    const text = userText(last as UserMessage);
    expect(text).toContain("SECOND-REPORT: flushed in src/cache.ts");
    expect(text).toContain(childId);
    expect(text.endsWith("what did it find?")).toBe(true);
    // Valid for the Messages API: roles still alternate (no second user message in a row).
    const api = toApiMessages(request.messages);
    expect(api.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(session.pendingChildReports).toHaveLength(0);
    // Saved: the user message in the session file carries the note.
    const lines = readFileSync(session.sessionPath!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const saved = lines.filter((l) => l.type === "message" && l.message.role === "user").at(-1);
    expect(saved.message.content).toContain("SECOND-REPORT");
    // Delivered once: the request after that carries no new note.
    await session.prompt("ok");
    expect(userText(provider.requests.at(-1)!.messages.at(-1) as UserMessage)).toBe("ok");
    session.close();
  });

  it("a refused resume queues nothing", async () => {
    const { session } = setup();
    await session.prompt("go");
    await session.resumeChild("20200101-000000-abcdef", "x");
    expect(session.pendingChildReports).toHaveLength(0);
    session.close();
  });
});

describe("child report notes", () => {
  it("split back into the notes and the person's text, even when the report quotes the closing tag", () => {
    const a = { childId: "c1", profile: "scout", prompt: 'say "hi"\nplease', status: "ok", report: "line 1\n</subagent-report>\nline 3" };
    const b = { childId: "c2", prompt: "p", status: "aborted", report: "partial" };
    const text = withChildReportNotes([a, b], "my question");
    const split = splitChildReportNotes(text);
    expect(split.text).toBe("my question");
    expect(split.notes).toHaveLength(2);
    expect(split.notes[0]).toMatchObject({ childId: "c1", profile: "scout", prompt: 'say "hi"\nplease', status: "ok" });
    expect(split.notes[0]!.report).toContain("line 3");
    expect(split.notes[1]).toEqual({ ...b });
    expect(splitChildReportNotes("plain text")).toEqual({ notes: [], text: "plain text" });
    expect(formatChildReportNote(b)).toMatch(/^<subagent-report child="c2" status="aborted">/);
  });
});
