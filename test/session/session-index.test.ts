import { appendFileSync, existsSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { INDEX_FILE } from "../../src/session/session-index.js";
import { SessionStore } from "../../src/session/store.js";
import { header, tempHome, user } from "./helpers.js";

let home: ReturnType<typeof tempHome>;
let store: SessionStore;

beforeEach(() => {
  home = tempHome();
  store = new SessionStore(home.dir);
});
afterEach(() => home.cleanup());

/** Creates `n` finished sessions (created, written, lock released), as a run leaves them. */
function finished(n: number, cwd = "/tmp/project"): string[] {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = store.create(header({ cwd, prompt: `task ${i}` }));
    const lock = store.lock(w.id);
    w.append({ type: "message", message: user(`task ${i}`) });
    w.append({ type: "status", status: i % 2 ? "done" : "aborted" });
    lock.release();
    ids.push(w.id);
  }
  return ids;
}

const indexPath = () => join(store.dir, INDEX_FILE);
const listing = (s = store) => s.list().map((x) => ({ id: x.id, status: x.status, size: x.size, mtimeMs: x.mtimeMs, prompt: x.prompt }));

describe("session index", () => {
  it("listing finished sessions reads the index, not the session files", () => {
    finished(5);
    const fresh = new SessionStore(home.dir);
    const first = listing(fresh);
    expect(first).toHaveLength(5);
    expect(fresh.index.lastStats.read).toBe(0);
    expect(first.map((s) => s.status).sort()).toEqual(["aborted", "aborted", "aborted", "done", "done"]);
  });

  it("a deleted index is rebuilt from the files with nothing lost", () => {
    finished(4);
    const before = listing();
    rmSync(indexPath());
    const fresh = new SessionStore(home.dir);
    expect(listing(fresh)).toEqual(before);
    expect(fresh.index.lastStats).toMatchObject({ read: 4, rewritten: true });
    expect(existsSync(indexPath())).toBe(true);
    listing(fresh);
    expect(fresh.index.lastStats.read).toBe(0);
  });

  it("a torn or garbage index is rebuilt with no loss, and the rewritten file is clean", () => {
    finished(6);
    const before = listing();
    const size = readFileSync(indexPath()).length;
    truncateSync(indexPath(), Math.floor(size / 2)); // a line cut in the middle
    appendFileSync(indexPath(), '\u0000\u0000garbage{"v":1,\n{"v":1,"id":"../etc","open":false,"s":{}}\n');
    const fresh = new SessionStore(home.dir);
    expect(listing(fresh)).toEqual(before);
    expect(fresh.index.lastStats.read).toBeGreaterThan(0);
    expect(fresh.index.lastStats.rewritten).toBe(true);
    const lines = readFileSync(indexPath(), "utf8").split("\n").filter(Boolean);
    expect(lines).toHaveLength(6);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("a session file deleted behind Ink's back leaves the listing, and one written by hand joins it", () => {
    const ids = finished(3);
    rmSync(store.path(ids[1]!));
    const other = new SessionStore(home.dir);
    writeFileSync(other.path("20250101-000000-abcdef"), `${JSON.stringify({ type: "header", version: 1, id: "20250101-000000-abcdef", kind: "main", cwd: "/tmp/project", provider: "p", model: "m", fingerprint: "f", toolNames: [], createdAt: "2025-01-01T00:00:00.000Z" })}\n`);
    const ids2 = store.list().map((s) => s.id);
    expect(ids2.sort()).toEqual([ids[0]!, ids[2]!, "20250101-000000-abcdef"].sort());
    expect(store.index.lastStats).toMatchObject({ read: 1, rewritten: true });
    expect(readFileSync(indexPath(), "utf8")).not.toContain(ids[1]!);
  });

  it("a stale entry of a session still being written is repaired from its file", () => {
    const w = store.create(header({ prompt: "running" }));
    const lock = store.lock(w.id);
    const other = new SessionStore(home.dir);
    expect(other.list()[0]!.status).toBeUndefined();
    w.append({ type: "status", status: "done", reason: "finished" });
    const [row] = other.list();
    expect(row).toMatchObject({ id: w.id, status: "done", statusReason: "finished", size: readFileSync(w.path).length });
    expect(other.index.lastStats.refreshed).toBe(1);
    lock.release();
  });

  it("a wrong index line for an open session is corrected (size and mtime differ from the file)", () => {
    const w = store.create(header());
    const line = JSON.parse(readFileSync(indexPath(), "utf8").split("\n").filter(Boolean).at(-1)!);
    appendFileSync(indexPath(), `\n${JSON.stringify({ ...line, s: { ...line.s, status: "bogus", size: 1, mtimeMs: 1 } })}\n`);
    const [row] = new SessionStore(home.dir).list();
    expect(row!.status).toBeUndefined();
    expect(row!.size).toBe(readFileSync(w.path).length);
  });

  it("an append after the lock was released marks the session open again", () => {
    const w = store.create(header());
    const lock = store.lock(w.id);
    lock.release();
    w.append({ type: "status", status: "error", reason: "late" });
    expect(new SessionStore(home.dir).list()[0]).toMatchObject({ status: "error", statusReason: "late" });
  });

  it("a reopened session (resume) is open again until released", () => {
    const [id] = finished(1);
    const w = store.open(id!);
    w.append({ type: "status", status: "done", reason: "resumed" });
    expect(new SessionStore(home.dir).list()[0]).toMatchObject({ id, statusReason: "resumed" });
  });

  it("two stores writing the same directory do not lose each other's sessions", () => {
    const a = new SessionStore(home.dir);
    const b = new SessionStore(home.dir);
    const ids = [a.create(header()).id, b.create(header()).id, a.create(header()).id];
    const fresh = new SessionStore(home.dir);
    expect(fresh.list().map((s) => s.id).sort()).toEqual(ids.sort());
    expect(fresh.index.lastStats.read).toBe(0);
  });

  it("superseded lines are compacted away once they outnumber the sessions", () => {
    const [id] = finished(1);
    for (let i = 0; i < 60; i++) store.index.record(id!, false);
    store.list();
    expect(store.index.lastStats.rewritten).toBe(true);
    expect(readFileSync(indexPath(), "utf8").split("\n").filter(Boolean)).toHaveLength(1);
  });
  it("a session whose index line a concurrent rewrite lost is open while its lock file exists", () => {
    const [done] = finished(1);
    const running = store.create(header({ cwd: "/tmp/project", prompt: "still running" }));
    store.lock(running.id); // held, as a running (or crashed) Ink leaves it
    running.append({ type: "message", message: user("still running") });
    // Another process read the index before this session's line was appended and renamed its
    // rewrite over it: only the finished session's lines survive.
    const lines = readFileSync(indexPath(), "utf8").split("\n").filter((l) => l.includes(done!));
    writeFileSync(indexPath(), `${lines.join("\n")}\n`);
    const fresh = new SessionStore(home.dir);
    expect(fresh.list().map((s) => s.id).sort()).toEqual([done, running.id].sort());
    expect([...fresh.index.lastOpen]).toEqual([running.id]);
  });
});
