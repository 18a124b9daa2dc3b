import { appendFileSync, existsSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appendVerified, dirState, parseRecord, readClaim, recordPath, rewriteRecord, writeClaim } from "../../src/session/latest-record.js";
import { SessionIndex } from "../../src/session/session-index.js";
import { SessionStore } from "../../src/session/store.js";
import { latestMainSession } from "../../src/host/project-setup.js";
import { header, tempHome, user } from "./helpers.js";

const CWD = "/tmp/project";
let home: ReturnType<typeof tempHome>;
let store: SessionStore;

beforeEach(() => {
  home = tempHome();
  store = new SessionStore(home.dir);
});
afterEach(() => {
  vi.restoreAllMocks();
  home.cleanup();
});

/** A session run as Ink leaves it: created, locked, written (last activity `ago` ms before now), released. */
function run(cwd = CWD, kind: "main" | "child" = "main", ago?: number): string {
  const w = store.create(header({ cwd, kind, prompt: "task" }));
  const lock = store.lock(w.id);
  w.append({ type: "message", message: user("task") });
  if (ago !== undefined) age(w.id, Date.now() - ago);
  lock.release();
  return w.id;
}

/** Resumes session `id` (as `--continue` does): lock, reopen, append, release. */
function resume(id: string): void {
  const lock = store.lock(id);
  const w = store.open(id);
  w.append({ type: "message", message: user("again") });
  lock.release();
}

/** Sets the mtime of session `id` to `ms` (as an old finished session has). */
function age(id: string, ms: number, s = store): void {
  const t = new Date(ms);
  utimesSync(s.path(id), t, t);
}

const listed = (cwd = CWD) => new SessionStore(home.dir).list({ cwd, kind: "main" })[0]?.id;

/** A fresh store's answer (as a new `ink --continue` process) and how it was found. */
function answer(cwd = CWD): { id: string | undefined; path: string; reason?: string } {
  const fresh = new SessionStore(home.dir);
  const id = fresh.latestMain(cwd);
  return { id, path: fresh.latest.lastStats.path, reason: fresh.latest.lastStats.reason };
}

/** Asserts the record's answer equals the full listing's, now and (after any rebuild) on the fast path. */
function expectExact(cwd = CWD): string | undefined {
  const want = listed(cwd);
  expect(answer(cwd).id).toBe(want);
  const again = answer(cwd);
  expect(again).toMatchObject({ id: want, path: "fast" });
  return want;
}

describe("latest main session of a cwd", () => {
  it("takes the fast path: the index and the full listing are not read", () => {
    for (let i = 0; i < 5; i++) run();
    const want = listed();
    answer(); // first answer claims the dir and builds the record
    const summaries = vi.spyOn(SessionIndex.prototype, "summaries");
    const list = vi.spyOn(SessionStore.prototype, "list");
    expect(latestMainSession(home.dir, CWD)).toBe(want);
    expect(summaries).not.toHaveBeenCalled();
    expect(list).not.toHaveBeenCalled();
    const fresh = new SessionStore(home.dir);
    fresh.latestMain(CWD);
    expect(fresh.latest.lastStats).toMatchObject({ path: "fast" });
    expect(fresh.latest.lastStats.candidates).toBeLessThanOrEqual(2);
  });

  it("Ink's own operations (create, lock, heartbeat, release, resume) keep the fast path", () => {
    run(CWD, "main", 60_000);
    expectExact();
    const id = run();
    expect(answer()).toMatchObject({ id, path: "fast" });
    const w = store.create(header({ cwd: CWD }));
    const lock = store.lock(w.id);
    expect(lock.renew()).toEqual({ ok: true }); // the heartbeat replaces the lock file
    expect(answer()).toMatchObject({ id: w.id, path: "fast" });
    w.append({ type: "message", message: user("x") });
    lock.release();
    resume(id);
    expect(answer()).toMatchObject({ id, path: "fast" });
    expect(listed()).toBe(id);
  });

  it("an operation overlapping another process's keeps the claim once that one claimed its change", () => {
    run();
    expectExact();
    const { gen } = readClaim(store.dir)!;
    writeFileSync(join(store.dir, "other.tmp"), ""); // another Ink process's change; its claim comes late ...
    store.latest.dirOp(() => {
      writeClaim(store.dir, { dir: dirState(store.dir)!, gen }); // ... now, while this operation runs
      writeFileSync(join(store.dir, "mine.tmp"), "");
    });
    expect(readClaim(store.dir)).toEqual({ dir: dirState(store.dir), gen });
    writeFileSync(join(store.dir, "foreign.tmp"), ""); // a change nobody claims ...
    const seen = dirState(store.dir) !== readClaim(store.dir)!.dir; // (not on a file system with coarse timestamps)
    store.latest.dirOp(() => writeFileSync(join(store.dir, "mine2.tmp"), ""));
    if (seen) expect(readClaim(store.dir)?.dir).not.toBe(dirState(store.dir)); // ... is never absorbed
  });

  it("stays exact across create, write, close, resume and delete", () => {
    const ids = [0, 1, 2].map((i) => run(CWD, "main", (10 - i) * 60_000));
    expect(expectExact()).toBe(ids[2]);
    resume(ids[0]!); // the oldest becomes the latest
    expect(expectExact()).toBe(ids[0]);
    const open = store.create(header({ cwd: CWD })); // created, not yet closed
    expect(expectExact()).toBe(open.id);
    age(open.id, Date.now() - 3600_000); // an open session's mtime can move either way
    expect(expectExact()).toBe(ids[0]);
    open.append({ type: "message", message: user("later") });
    expect(expectExact()).toBe(open.id);
    rmSync(open.path); // an open one gone: doubtful until a rebuild finds it long gone
    expect(answer()).toMatchObject({ id: ids[0], path: "full" });
    expect(answer()).toMatchObject({ id: ids[0], path: "full", reason: expect.stringContaining("gone") });
    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now + 120_000);
    expect(answer()).toMatchObject({ id: ids[0], path: "full" });
    vi.restoreAllMocks();
    expect(answer()).toMatchObject({ id: ids[0], path: "fast" });
    rmSync(store.path(ids[0]!)); // the best closed one gone
    expect(answer().path).toBe("full");
    expect(expectExact()).toBe(ids[2]);
  });

  it("a session standing for older ones, reopened and then deleted, falls back to the listing", () => {
    const older = run(CWD, "main", 3600_000);
    const best = run(CWD, "main", 60_000);
    expectExact();
    const named = parseRecord(readFileSync(recordPath(store.dir, CWD), "utf8")).events.map((e) => e.id);
    expect(named).toEqual([best]); // the older one is only implied
    const lock = store.lock(best);
    store.open(best).append({ type: "message", message: user("again") }); // open now
    rmSync(store.path(best));
    lock.release();
    // as if the deletion had happened during an Ink operation that moved the claim past it
    writeClaim(store.dir, { dir: dirState(store.dir)!, gen: readClaim(store.dir)!.gen });
    expect(answer()).toMatchObject({ id: older, path: "full", reason: expect.stringContaining("gone") });
    vi.spyOn(Date, "now").mockReturnValue(Date.now() + 120_000); // long gone: the rebuild drops it
    expect(expectExact()).toBe(older);
  });

  it("an append after the release makes a session a candidate again", () => {
    const w = store.create(header({ cwd: CWD }));
    const lock = store.lock(w.id);
    age(w.id, Date.now() - 3600_000);
    lock.release();
    const other = run(CWD, "main", 1800_000);
    expect(expectExact()).toBe(other);
    w.append({ type: "message", message: user("after release") });
    expect(expectExact()).toBe(w.id);
  });

  it("ignores child sessions and other cwds, and says none for a cwd without sessions", () => {
    const mine = run(CWD, "main", 60_000);
    run(CWD, "child");
    run("/tmp/elsewhere");
    expect(expectExact()).toBe(mine);
    expect(expectExact("/tmp/nothing-here")).toBeUndefined();
    expect(new SessionStore(join(home.dir, "absent")).latestMain(CWD)).toBeUndefined();
    expect(existsSync(join(home.dir, "absent"))).toBe(false); // asking creates nothing
  });

  it("ties are broken as the listing does (createdAt, then id)", () => {
    for (let i = 0; i < 3; i++) run(CWD, "main", Date.now() - 1_700_000_000_000);
    expectExact();
  });

  it("a session file written by hand (or an older Ink) is noticed through the dir and picked", () => {
    run(CWD, "main", 60_000);
    expectExact();
    const id = "20990101-000000-aaaaaa";
    writeFileSync(store.path(id), `${JSON.stringify({ type: "header", version: 1, id, kind: "main", cwd: CWD, provider: "x", model: "x", fingerprint: "f", toolNames: [], createdAt: new Date().toISOString() })}\n`);
    expect(answer()).toMatchObject({ id, path: "full", reason: "the sessions dir changed" });
    expect(expectExact()).toBe(id);
  });

  it("an older Ink resuming an old session (a lock file appears) falls back to the listing", () => {
    const old = run(CWD, "main", 3600_000);
    run(CWD, "main", 60_000);
    for (let i = 0; i < 70; i++) run("/tmp/p2"); // enough events elsewhere; this cwd's record stays small
    expectExact();
    // What an Ink without the records does: lock, mark open in the index, append.
    writeFileSync(`${store.path(old)}.lock`, "{}");
    new SessionIndex(store.dir).record(old, true);
    appendFileSync(store.path(old), `${JSON.stringify({ type: "message", message: user("by an older Ink"), at: new Date().toISOString() })}\n`);
    expect(answer()).toMatchObject({ path: "full" });
    expect(listed()).toBe(old);
    expectExact();
  });

  it("a closed candidate edited in place by hand is doubted", () => {
    run(CWD, "main", 3600_000);
    const b = run(CWD, "main", 7200_000);
    resume(b); // b: the latest; then a hand edit that keeps the dir as it was, so b's size and mtime no longer match its close
    expectExact();
    appendFileSync(store.path(b), `${JSON.stringify({ type: "status", status: "done", at: new Date().toISOString() })}\n`);
    expect(answer()).toMatchObject({ id: listed(), path: "full", reason: expect.stringContaining("changed since it was closed") });
    // The index still has b's size and mtime from its close (it trusts closed entries), so the
    // record rebuilt from the listing stays doubtful: every answer is the full listing's.
    expect(answer()).toMatchObject({ id: listed(), path: "full" });
  });

  it("an in-place hand edit of an old session the record only implies leaves both answers alike", () => {
    const old = run(CWD, "main", 3600_000);
    const newest = run(CWD, "main", 60_000);
    expectExact();
    appendFileSync(store.path(old), `${JSON.stringify({ type: "status", status: "done", at: new Date().toISOString() })}\n`);
    expect(answer()).toMatchObject({ id: newest, path: "fast" });
    expect(listed()).toBe(newest); // the index trusts the line of a closed session too
  });

  it("a torn, missing or foreign record is rebuilt from the listing", () => {
    for (let i = 0; i < 3; i++) run();
    expectExact();
    const path = recordPath(store.dir, CWD);
    appendFileSync(path, '{"v":1,"id":"2026');
    expect(answer()).toMatchObject({ path: "full", reason: "a torn record" });
    expectExact();
    rmSync(path);
    expect(answer()).toMatchObject({ path: "full", reason: "no record" });
    expectExact();
    writeFileSync(path, ""); // a record with no base line is incomplete
    expect(answer().path).toBe("full");
    expectExact();
    rmSync(join(store.dir, ".latest"), { recursive: true });
    expect(answer().path).toBe("full");
    expectExact();
  });

  it("a record of an older claim generation is not trusted after a change nobody claimed", () => {
    run(CWD);
    run("/tmp/p2");
    expectExact(CWD);
    expectExact("/tmp/p2");
    const id = "20990101-000000-bbbbbb"; // made by hand in p2 ...
    writeFileSync(store.path(id), `${JSON.stringify({ type: "header", version: 1, id, kind: "main", cwd: "/tmp/p2", provider: "x", model: "x", fingerprint: "f", toolNames: [], createdAt: new Date().toISOString() })}\n`);
    expectExact(CWD); // ... then CWD's fallback claims the dir again (a new generation)
    expect(answer("/tmp/p2")).toMatchObject({ path: "full", reason: "a record of another generation" });
    expect(expectExact("/tmp/p2")).toBe(id);
  });

  it("a long record is compacted to the open sessions and the best closed one, staying exact", () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(run(CWD, "main", (100 - i) * 1000));
    const open = store.create(header({ cwd: CWD }));
    age(open.id, Date.now() - 500_000);
    answer();
    const fresh = new SessionStore(home.dir);
    expect(fresh.latestMain(CWD)).toBe(ids.at(-1));
    expect(fresh.latest.lastStats).toMatchObject({ path: "fast" });
    for (let i = 0; i < 40; i++) resume(ids[i]!);
    const before = parseRecord(readFileSync(recordPath(store.dir, CWD), "utf8")).lines;
    expect(before).toBeGreaterThan(64);
    const f2 = new SessionStore(home.dir);
    expect(f2.latestMain(CWD)).toBe(listed());
    expect(f2.latest.lastStats).toMatchObject({ path: "fast", rewritten: true });
    const after = parseRecord(readFileSync(recordPath(store.dir, CWD), "utf8"));
    expect(after.lines).toBe(3); // base, the open one, the best closed one
    expect(after.events.map((e) => e.id).sort()).toEqual([open.id, listed()].sort());
    expectExact();
    open.append({ type: "message", message: user("now") });
    expect(expectExact()).toBe(open.id);
  });
});

describe("latest record files", () => {
  it("a line written to a file a rewrite just replaced is written again to the new one", () => {
    const path = join(home.dir, "r.ndjson");
    let renamed = false;
    const ok = appendVerified(path, '{"v":1,"id":"a","open":true}', () => {
      if (renamed) return;
      renamed = true; // a rewrite that read the file before our write renames its copy over it
      writeFileSync(`${path}.tmp`, '{"v":1,"base":"g"}\n');
      renameSync(`${path}.tmp`, path);
    });
    expect(ok).toBe(true);
    expect(parseRecord(readFileSync(path, "utf8"))).toMatchObject({ base: "g", events: [{ id: "a", open: true }], torn: false });
  });

  it("a line appended while a rewrite is under way is carried over, not lost", () => {
    const path = join(home.dir, "r.ndjson");
    appendVerified(path, '{"v":1,"base":"g"}');
    appendVerified(path, '{"v":1,"id":"a","open":true}');
    const ok = rewriteRecord(path, (old) => {
      appendVerified(path, '{"v":1,"id":"b","open":true}'); // another process, between the read and the rename
      return ['{"v":1,"base":"g"}', ...old.events.map((e) => JSON.stringify({ v: 1, ...e }))];
    });
    expect(ok).toBe(true);
    const rec = parseRecord(readFileSync(path, "utf8"));
    expect(rec).toMatchObject({ base: "g", torn: false });
    expect(rec.events.map((e) => e.id)).toEqual(["a", "b"]);
  });
});
