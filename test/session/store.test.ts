import { appendFileSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSessionFile, SESSION_LINE_MAX_BYTES } from "../../src/session/load.js";
import { INTERRUPTED_RESULT, isHistoryValid } from "../../src/session/repair.js";
import { SessionNotFoundError, SessionStore } from "../../src/session/store.js";
import { compactionSummaryMessage, type TaskRecord } from "../../src/session/types.js";
import { assistant, header, results, tempHome, user } from "./helpers.js";

let home: { dir: string; cleanup: () => void };
let store: SessionStore;
beforeEach(() => {
  home = tempHome();
  store = new SessionStore(home.dir);
});
afterEach(() => home.cleanup());

const record: TaskRecord = {
  childId: "c1",
  sessionId: "20260101-000000-aaaaaa",
  profile: "scout",
  status: "ok",
  turns: 3,
  usage: { input: 100, output: 20, cacheRead: 1, cacheWrite: 2 },
  durationMs: 1234,
  worktree: { path: "/tmp/wt", branch: "ink/c1", kept: true },
  prompt: "look around",
};

describe("SessionStore", () => {
  it("round-trips messages, task records and usage entries", () => {
    const w = store.create(header({ prompt: "hello" }));
    const history = [user("hello"), assistant("", [{ id: "t1", name: "read" }]), results(["t1", "read"]), assistant("done")];
    w.append({ type: "message", message: history[0]! });
    w.append({ type: "message", message: history[1]! });
    w.append({ type: "message", message: history[2]! });
    w.append({ type: "task_record", record });
    w.append({ type: "usage", usage: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 } });
    w.append({ type: "message", message: history[3]! });

    const loaded = store.load(w.id);
    expect(loaded.messages).toEqual(history);
    expect(loaded.records).toEqual([{ ...record, endedAt: expect.stringMatching(/^\d{4}-/) }]); // the entry's time, filled in by the loader
    expect(loaded.repaired).toBe(false);
    expect(loaded.notes).toEqual([]);

    const lines = readFileSync(w.path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines).toHaveLength(7);
    expect(lines.slice(1).map((l) => l.type)).toEqual(["message", "message", "message", "task_record", "usage", "message"]);
    expect(lines.slice(1).every((l) => typeof l.at === "string" && !Number.isNaN(Date.parse(l.at)))).toBe(true);
  });

  it("reads the usage ledger's entries (agent, run, model) as its rows, apart from the runs' totals", () => {
    const w = store.create(header());
    w.append({ type: "usage", usage: { input: 5, output: 1, cacheRead: 0, cacheWrite: 0 }, agent: "main", model: "claude-sonnet-4-5" });
    w.append({ type: "message", message: user("hello") });
    w.append({ type: "usage", usage: { input: 7, output: 2, cacheRead: 0, cacheWrite: 0 }, agent: "c1", run: "t1", model: "local-llm" });
    w.append({ type: "usage", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } });
    const loaded = store.load(w.id);
    expect(loaded.spend).toEqual([
      { agent: "main", model: "claude-sonnet-4-5", usage: { input: 5, output: 1, cacheRead: 0, cacheWrite: 0 } },
      { agent: "c1", run: "t1", model: "local-llm", usage: { input: 7, output: 2, cacheRead: 0, cacheWrite: 0 } },
    ]);
    expect(loaded.lifetime.usage).toEqual({ input: 1, output: 1, cacheRead: 0, cacheWrite: 0 });
  });

  it("a file written before the ledger was saved: its rows come from the turns and task records before the first ledger entry", () => {
    const w = store.create(header({ model: "claude-sonnet-4-5" }));
    w.append({ type: "message", message: user("hello") });
    w.append({ type: "message", message: { ...assistant("a"), model: "claude-opus-4-5" } });
    w.append({ type: "message", message: { role: "assistant", content: [{ type: "text", text: "cut" }], stopReason: "aborted", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, abortedUsage: { input: 0, output: 9, cacheRead: 0, cacheWrite: 0 } } });
    w.append({ type: "task_record", record: { ...record, toolCallId: "t1", model: "claude-haiku-4-5" } });
    // Then a newer version resumed it: what it spent is in its ledger entries, its messages are not counted again.
    w.append({ type: "usage", usage: { input: 3, output: 3, cacheRead: 0, cacheWrite: 0 }, agent: "main", model: "claude-sonnet-4-5" });
    w.append({ type: "message", message: { ...assistant("b"), usage: { input: 3, output: 3, cacheRead: 0, cacheWrite: 0 }, model: "claude-sonnet-4-5" } });
    expect(store.load(w.id).spend).toEqual([
      { agent: "main", model: "claude-opus-4-5", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 } },
      { agent: "main", model: "claude-sonnet-4-5", usage: { input: 0, output: 9, cacheRead: 0, cacheWrite: 0 } },
      { agent: "c1", run: "t1", model: "claude-haiku-4-5", usage: record.usage },
      { agent: "main", model: "claude-sonnet-4-5", usage: { input: 3, output: 3, cacheRead: 0, cacheWrite: 0 } },
    ]);
  });

  it("a compaction leaves the spend whole: the turns it took out of the history were counted as they were read", () => {
    const w = store.create(header({ model: "claude-sonnet-4-5" }));
    w.append({ type: "message", message: user("hello") });
    w.append({ type: "message", message: { ...assistant("a"), model: "claude-opus-4-5" } });
    w.append({ type: "compaction", summary: "said hello", replacedCount: 2 });
    const loaded = store.load(w.id);
    expect(loaded.messages).toHaveLength(1);
    expect(loaded.spend).toEqual([{ agent: "main", model: "claude-opus-4-5", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 } }]);
  });

  it("persists every header field", () => {
    const fields = header({
      kind: "child",
      parentId: "20260101-000000-parent",
      parentToolCallId: "toolu_1",
      profile: "scout",
      prompt: "investigate",
      worktree: { path: "/tmp/wt", branch: "ink/x" },
    });
    const w = store.create(fields, { id: "20260101-000001-child1" });
    expect(w.id).toBe("20260101-000001-child1");
    expect(w.path).toBe(join(store.dir, "20260101-000001-child1.jsonl"));
    const h = store.readHeader(w.id);
    expect(h).toMatchObject({ type: "header", version: 1, id: w.id, ...fields });
    expect(Date.parse(h.createdAt)).not.toBeNaN();
    expect(store.load(w.id).header).toEqual(h);
  });

  it("generates distinct filesystem-safe ids and refuses duplicates and unsafe ids", () => {
    const a = store.create(header());
    const b = store.create(header());
    expect(a.id).not.toBe(b.id);
    expect(a.id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(() => store.create(header(), { id: a.id })).toThrow(/already exists/);
    expect(() => store.create(header(), { id: "../evil" })).toThrow(/invalid session id/);
  });

  it("draws another id when a generated one already names a session, leaving that session untouched", () => {
    const existing = store.create(header({ prompt: "keep me" }), { id: "20260101-000000-aaaaaa" });
    existing.append({ type: "message", message: user("keep me") });
    const before = readFileSync(existing.path, "utf8");
    const ids = ["20260101-000000-aaaaaa", "20260101-000000-bbbbbb"];
    const drawing = new SessionStore(home.dir, { newId: () => ids.shift()! });

    const w = drawing.create(header({ prompt: "new" }));

    expect(w.id).toBe("20260101-000000-bbbbbb");
    expect(ids).toEqual([]);
    expect(readFileSync(existing.path, "utf8")).toBe(before);
    expect(drawing.readHeader(w.id)).toMatchObject({ id: w.id, prompt: "new" });
    w.append({ type: "message", message: user("new") });
    expect(drawing.load(existing.id).messages).toEqual([user("keep me")]);
    expect(drawing.load(w.id).messages).toEqual([user("new")]);
  });

  it("gives up with a clear error when every generated id is taken", () => {
    store.create(header(), { id: "20260101-000000-aaaaaa" });
    const stuck = new SessionStore(home.dir, { newId: () => "20260101-000000-aaaaaa" });
    expect(() => stuck.create(header())).toThrow(/cannot find a free session id/);
  });

  it("lists sessions filtered by cwd, parentId and kind, most recent first", () => {
    const main = store.create(header({ cwd: "/work/a" }));
    const other = store.create(header({ cwd: "/work/b" }));
    const c1 = store.create(header({ kind: "child", cwd: "/work/a", parentId: main.id }));
    const c2 = store.create(header({ kind: "child", cwd: "/work/a", parentId: main.id }));
    c2.append({ type: "status", status: "ok" });
    c1.append({ type: "status", status: "crash", reason: "boom" });
    c1.append({ type: "message", message: user("later") });
    const times: Array<[string, number]> = [[main.id, 1000], [other.id, 4000], [c1.id, 2000], [c2.id, 3000]];
    for (const [id, t] of times) utimesSync(store.path(id), t, t);

    expect(store.list().map((s) => s.id)).toEqual([other.id, c2.id, c1.id, main.id]);
    expect(store.list({ cwd: "/work/a" }).map((s) => s.id)).toEqual([c2.id, c1.id, main.id]);
    expect(store.list({ cwd: "/work/a/" }).map((s) => s.id)).toEqual([c2.id, c1.id, main.id]);
    expect(store.list({ parentId: main.id }).map((s) => s.id)).toEqual([c2.id, c1.id]);
    expect(store.list({ kind: "main" }).map((s) => s.id)).toEqual([other.id, main.id]);

    const [s2, s1] = store.list({ parentId: main.id });
    expect(s2).toMatchObject({ status: "ok", kind: "child", path: store.path(c2.id), mtimeMs: 3000 * 1000 });
    expect(s2!.statusReason).toBeUndefined();
    expect(s1).toMatchObject({ status: "crash", statusReason: "boom" });
    expect(s1!.size).toBe(readFileSync(store.path(c1.id)).length);
    expect(store.list({ cwd: "/work/a" }).find((s) => s.id === main.id)!.status).toBeUndefined();
  });

  it("list skips files with a bad header and returns [] without a sessions dir", () => {
    expect(new SessionStore(join(home.dir, "nowhere")).list()).toEqual([]);
    const good = store.create(header());
    writeFileSync(join(store.dir, "broken.jsonl"), "not json\n");
    expect(store.list().map((s) => s.id)).toEqual([good.id]);
  });

  it("reads headers and statuses across large lines", () => {
    const big = "x".repeat(200_000);
    const w = store.create(header({ prompt: big }));
    w.append({ type: "status", status: "aborted", reason: "stopped" });
    w.append({ type: "message", message: user(big) });
    w.append({ type: "message", message: user(big) });
    const [summary] = store.list();
    // Listings keep the start of the prompt (the index stays small); the header keeps all of it.
    expect(summary!.prompt).toBe(big.slice(0, 200));
    expect(store.readHeader(w.id).prompt).toBe(big);
    expect(summary).toMatchObject({ status: "aborted", statusReason: "stopped" });
  });

  it("drops a torn last line with a note and keeps everything before it", () => {
    const w = store.create(header());
    w.append({ type: "message", message: user("one") });
    w.append({ type: "message", message: assistant("two") });
    appendFileSync(w.path, JSON.stringify({ type: "message", message: user("three"), at: "x" }).slice(0, 25));

    const loaded = store.load(w.id);
    expect(loaded.messages).toEqual([user("one"), assistant("two")]);
    expect(loaded.repaired).toBe(true);
    expect(loaded.notes).toHaveLength(1);
    expect(loaded.notes[0]).toContain("line 4");
    expect(loaded.notes[0]).toContain(w.path);
    expect(loaded.notes[0]).toMatch(/last line/);
  });

  it("open() cuts a torn tail so appends after a crash start on a clean line", () => {
    const w = store.create(header());
    w.append({ type: "message", message: user("one") });
    appendFileSync(w.path, '{"type":"message","mess');
    const again = store.open(w.id);
    again.append({ type: "message", message: assistant("two") });
    const loaded = store.load(w.id);
    expect(loaded.messages).toEqual([user("one"), assistant("two")]);
    expect(loaded.repaired).toBe(false);
  });

  it("open() keeps a complete last entry that only lacks its newline", () => {
    const w = store.create(header());
    appendFileSync(w.path, JSON.stringify({ type: "message", message: user("one"), at: "t" }));
    store.open(w.id).append({ type: "message", message: assistant("two") });
    expect(store.load(w.id).messages).toEqual([user("one"), assistant("two")]);
  });

  it("skips a corrupt middle line with a note naming the file and line", () => {
    const w = store.create(header());
    w.append({ type: "message", message: user("one") });
    appendFileSync(w.path, "{garbage\n");
    appendFileSync(w.path, `${JSON.stringify({ type: "message", message: { role: "wizard" }, at: "t" })}\n`);
    w.append({ type: "message", message: assistant("two") });

    const loaded = store.load(w.id);
    expect(loaded.messages).toEqual([user("one"), assistant("two")]);
    expect(loaded.repaired).toBe(true);
    expect(loaded.notes).toEqual([
      expect.stringMatching(new RegExp(`skipped line 3 of .*${w.id}\\.jsonl: not valid JSON`)),
      expect.stringMatching(/skipped line 4 of .*: not a valid entry/),
    ]);
  });

  it("skips a line over the size cap without decoding it, naming the line and its size, also as the last line; the history stays sendable", () => {
    expect(SESSION_LINE_MAX_BYTES).toBe(64 * 1024 * 1024);
    const w = store.create(header());
    w.append({ type: "message", message: user("one") });
    w.append({ type: "message", message: assistant("x".repeat(5_000)) }); // over the test's 1 KB cap
    w.append({ type: "message", message: user("two") });
    w.append({ type: "message", message: assistant("three") });
    appendFileSync(w.path, `${JSON.stringify({ type: "message", message: user("y".repeat(3_000)), at: "t" })}\n`);
    const loaded = loadSessionFile(w.path, { maxLineBytes: 1024 });
    expect(loaded.notes.slice(0, 2)).toEqual([
      expect.stringMatching(new RegExp(`skipped line 3 of .*${w.id}\\.jsonl: it is 0\\.0 MB, over the 0 MB a session line may hold`)),
      expect.stringMatching(/skipped line 6 of .*: it is 0\.0 MB/),
    ]);
    expect(isHistoryValid(loaded.messages)).toBe(true);
    expect(loaded.messages[0]).toEqual(user("one"));
    expect(loaded.messages.at(-1)).toEqual(assistant("three"));
    expect(store.load(w.id).notes).toEqual([]); // the default cap keeps them all
  });

  it("repairs a history interrupted during tool calls", () => {
    const w = store.create(header());
    w.append({ type: "message", message: user("go") });
    w.append({ type: "message", message: assistant("", [{ id: "t1", name: "bash" }, { id: "t2", name: "read" }]) });
    const loaded = store.load(w.id);
    expect(loaded.repaired).toBe(true);
    expect(isHistoryValid(loaded.messages)).toBe(true);
    expect(loaded.messages[2]).toEqual({
      role: "toolResult",
      results: [
        { toolCallId: "t1", toolName: "bash", content: INTERRUPTED_RESULT, isError: true },
        { toolCallId: "t2", toolName: "read", content: INTERRUPTED_RESULT, isError: true },
      ],
    });
    expect(loaded.notes[0]).toContain(w.path);
  });

  it("applies compaction entries: summarised messages are replaced by one summary message", () => {
    const w = store.create(header());
    for (const m of [user("a"), assistant("b"), user("c"), assistant("d")]) w.append({ type: "message", message: m });
    w.append({ type: "compaction", summary: "S1", replacedCount: 4 });
    w.append({ type: "message", message: user("e") });
    expect(store.load(w.id).messages).toEqual([compactionSummaryMessage("S1"), user("e")]);

    // A second compaction replacing only the oldest message ([S1, e, f] → [S2, e, f]).
    w.append({ type: "message", message: assistant("f") });
    w.append({ type: "compaction", summary: "S2", replacedCount: 1 });
    const loaded = store.load(w.id);
    expect(loaded.messages).toEqual([compactionSummaryMessage("S2"), user("e"), assistant("f")]);
    expect(loaded.messages[0]!.role).toBe("user");
    expect(JSON.stringify(loaded.messages[0])).toContain("S2");
    expect(loaded.repaired).toBe(false);
  });

  it("names the id and the sessions dir for an unknown id", () => {
    for (const call of [() => store.load("nope"), () => store.open("nope"), () => store.readHeader("nope"), () => store.lock("nope")]) {
      expect(call).toThrow(SessionNotFoundError);
      expect(call).toThrow(`unknown session "nope": there is no nope.jsonl in ${store.dir}`);
    }
  });

  it("throws a clear error naming the path for a missing or invalid header", () => {
    store.create(header(), { id: "ok" });
    const cases: Array<[string, string, RegExp]> = [
      ["empty", "", /it is empty/],
      ["notjson", "hello\n", /first line is not JSON/],
      ["noheader", `${JSON.stringify({ type: "message", message: user("x"), at: "t" })}\n`, /invalid session header .*type/],
      ["nocwd", `${JSON.stringify({ ...JSON.parse(readFileSync(store.path("ok"), "utf8")), cwd: undefined })}\n`, /invalid session header .*cwd/],
      ["newer", `${JSON.stringify({ type: "header", version: 2 })}\n`, /format version 2; this Ink reads version 1/],
    ];
    for (const [id, text, pattern] of cases) {
      writeFileSync(store.path(id), text);
      if (id === "notjson" || id === "noheader" || id === "nocwd") expect(() => store.load(id)).toThrow("this session cannot be resumed until its first line is restored; the file is left as it is — start a new session (ink without --continue/--resume)");
      expect(() => store.load(id)).toThrow(pattern);
      expect(() => store.load(id)).toThrow(store.path(id));
      expect(() => store.readHeader(id)).toThrow(pattern);
    }
  });
});

describe("compaction after a repaired resume", () => {
  it("counts replaced messages on the repaired history, so a reload equals the live one", async () => {
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { SessionStore } = await import("../../src/session/store.js");
    const { compactionSummaryMessage } = await import("../../src/session/types.js");
    const store = new SessionStore(mkdtempSync(join(tmpdir(), "ink-sess-")));
    const w = store.create({ kind: "main", cwd: "/x", provider: "p", model: "m", fingerprint: "f", toolNames: [] });
    const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    w.append({ type: "message", message: { role: "user", content: "first" } });
    // a crash left a tool call without a result
    w.append({ type: "message", message: { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "ls", arguments: {} }], stopReason: "tool_use", usage } });
    // resumed: the live history is repaired (a synthetic result, saved as the resumer does), then goes on
    const loaded = store.load(w.id);
    for (const message of loaded.toPersist) w.append({ type: "message", message });
    const live = loaded.messages;
    live.push({ role: "user", content: "SECOND question (must survive)" }, { role: "assistant", content: [{ type: "text", text: "answer" }], stopReason: "end_turn", usage });
    w.append({ type: "message", message: live[3]! });
    w.append({ type: "message", message: live[4]! });
    // compaction of the first three live messages (user, assistant, synthetic toolResult)
    const replacedCount = 3;
    const after = [compactionSummaryMessage("S"), ...live.slice(replacedCount)];
    w.append({ type: "compaction", summary: "S", replacedCount });
    expect(store.load(w.id).messages).toEqual(after);
  });
});
