import { describe, expect, it } from "vitest";
import { emptyUsage } from "../../src/protocol/messages.js";
import type { SessionSummary } from "../../src/session/types.js";
import { endChild, startChild } from "./child-reducer.js";
import { sidebarRows, storedRow, transcriptChildren } from "./sidebar-rows.js";
import type { TranscriptItem } from "./transcript-types.js";

const summary = (id: string, fields: Partial<SessionSummary> = {}): SessionSummary => ({
  type: "header", version: 1, id, kind: "child", cwd: "/p", provider: "x", model: "m", fingerprint: "f", toolNames: [], createdAt: "2026-01-01T00:00:00Z",
  path: `/s/${id}.jsonl`, size: 10, mtimeMs: 1000, ...fields,
});
const taskItem = (id: string, child: ReturnType<typeof startChild>, done: boolean, result?: string): TranscriptItem => ({ kind: "tool", id, done, name: "task", args: {}, status: done ? "ok" : "running", child, result });

describe("sidebar rows", () => {
  it("takes this session's children from the transcript, the latest run of each id winning", () => {
    const first = endChild(startChild({ childId: "c1", prompt: "look at the cache\nin detail", resumed: false, at: 100 }), { status: "ok", turns: 1, usage: emptyUsage(), durationMs: 50 });
    const again = startChild({ childId: "c1", profile: "scout", prompt: "follow up", resumed: true, at: 500 });
    const rows = transcriptChildren([{ kind: "user", id: "u", done: true, text: "q" }, taskItem("t1", first, true, "REPORT"), taskItem("t2", again, false)]);
    expect(rows).toEqual([{ id: "c1", status: "running", profile: "scout", prompt: "follow up", at: 500, current: true, result: undefined }]);
    expect(transcriptChildren([taskItem("t1", first, true, "REPORT")])[0]).toMatchObject({ status: "ok", at: 150, prompt: "look at the cache", result: "REPORT" });
  });

  it("maps saved sessions: known statuses kept, anything else unknown, parent decides 'this session'", () => {
    expect(storedRow(summary("a", { status: "timeout", parentId: "main1", prompt: "p\nq", profile: "scout" }), "main1")).toEqual({ id: "a", status: "timeout", profile: "scout", prompt: "p", at: 1000, current: true, parent: "main1" });
    expect(storedRow(summary("b"), "main1")).toMatchObject({ status: "unknown", prompt: "", current: false });
    expect(storedRow(summary("c", { status: "weird" }), "main1").status).toBe("unknown");
  });

  it("merges (transcript status wins, saved first prompt wins) and orders running, this session, then earlier newest first", () => {
    const live = [
      { id: "c1", status: "running" as const, prompt: "latest prompt", at: 50, current: true },
      { id: "c2", status: "ok" as const, prompt: "two", at: 60, current: true, result: "R" },
    ];
    const stored = [summary("c1", { prompt: "original prompt", mtimeMs: 70 }), summary("old1", { mtimeMs: 10 }), summary("old2", { mtimeMs: 20 }), summary("c3", { parentId: "me", mtimeMs: 5, status: "ok" })];
    const rows = sidebarRows(live, stored, "me");
    expect(rows.map((r) => r.id)).toEqual(["c1", "c2", "c3", "old2", "old1"]);
    expect(rows[0]).toMatchObject({ status: "running", prompt: "original prompt", at: 50 });
    expect(rows[1]!.result).toBe("R");
  });
});
