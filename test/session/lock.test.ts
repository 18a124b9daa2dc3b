import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireLock, isProcessAlive, readLock, SessionLockedError } from "../../src/session/lock.js";
import { startLease } from "../../src/session/lock-lease.js";
import { processStartTime } from "../../src/session/process-identity.js";
import { SessionStore } from "../../src/session/store.js";
import { header, tempHome } from "./helpers.js";

let home: { dir: string; cleanup: () => void };
beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise<void>((resolve, reject) => {
    child.on("exit", () => resolve());
    child.on("error", reject);
  });
  return child.pid!;
}

describe("acquireLock", () => {
  it("writes pid, hostname, start time and owner, and release removes it", () => {
    const path = join(home.dir, "s1.jsonl.lock");
    const lock = acquireLock(path, "task t1");
    expect(readLock(path)).toMatchObject({ pid: process.pid, hostname: hostname(), owner: "task t1" });
    expect(Date.parse(readLock(path)!.startedAt)).not.toBeNaN();
    lock.release();
    expect(existsSync(path)).toBe(false);
    lock.release(); // twice is fine
  });

  it("refuses a second acquire while a live process (this one) holds it", () => {
    const path = join(home.dir, "20260101-000000-abcdef.jsonl.lock");
    const lock = acquireLock(path);
    const since = readLock(path)!.startedAt;
    let error: unknown;
    try {
      acquireLock(path);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SessionLockedError);
    const beat = readLock(path)!.heartbeatAt;
    expect((error as Error).message).toBe(
      `session 20260101-000000-abcdef is in use by process ${process.pid} since ${since}, last heartbeat ${beat}; wait for it to finish or stop it`,
    );
    lock.release();
    acquireLock(path).release();
  });

  it("takes over a stale lock whose process is gone", async () => {
    const path = join(home.dir, "s.jsonl.lock");
    const pid = await deadPid();
    expect(isProcessAlive(pid)).toBe(false);
    writeFileSync(path, JSON.stringify({ pid, hostname: hostname(), startedAt: "2020-01-01T00:00:00.000Z" }));
    const lock = acquireLock(path, "me");
    expect(readLock(path)).toMatchObject({ pid: process.pid, owner: "me" });
    lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it("takes over a garbage lock file", () => {
    const path = join(home.dir, "s.jsonl.lock");
    for (const garbage of ["", "{not json", JSON.stringify({ pid: "x" }), JSON.stringify({ pid: 0, hostname: hostname() })]) {
      writeFileSync(path, garbage);
      const lock = acquireLock(path);
      expect(readLock(path)?.pid).toBe(process.pid);
      lock.release();
    }
  });

  it("refuses a lock held on another host naming the host and since when, never saying to delete it; an explicit takeover works and is recorded", () => {
    const path = join(home.dir, "s.jsonl.lock");
    writeFileSync(path, JSON.stringify({ pid: 4242, hostname: `${hostname()}-elsewhere`, startedAt: "t", heartbeatAt: "h" }));
    let message = "";
    try {
      acquireLock(path);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/in use by process 4242 on host .*-elsewhere since t, last heartbeat h/);
    expect(message).toContain("--take-over-lock");
    expect(message).not.toMatch(/delete/i);
    const lock = acquireLock(path, "me", { takeOverOtherHost: true });
    expect(lock.takenOver).toMatchObject({ pid: 4242, hostname: `${hostname()}-elsewhere`, startedAt: "t", reason: expect.stringContaining("on request") });
    expect(readLock(path)).toMatchObject({ pid: process.pid, takeover: { pid: 4242 } });
    lock.release();
  });

  it("a live holder is never taken, even when asked to take over another host's lock", () => {
    const path = join(home.dir, "live.jsonl.lock");
    const lock = acquireLock(path);
    expect(() => acquireLock(path, "x", { takeOverOtherHost: true })).toThrow(SessionLockedError);
    lock.release();
  });

  it("a pid reused by an unrelated live process (start time differs) is taken over, recording why", () => {
    const path = join(home.dir, "reused.jsonl.lock");
    // This test process is alive, but it is not the process that wrote the lock: its start time differs.
    writeFileSync(path, JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: "2020-01-01T00:00:00Z", procStart: "1", token: "old" }));
    const lock = acquireLock(path, "new run");
    expect(lock.takenOver).toMatchObject({ pid: process.pid, reason: expect.stringContaining("now belongs to another process") });
    expect(readLock(path)).toMatchObject({ owner: "new run", procStart: processStartTime(process.pid) });
    lock.release();
  });

  it("renew writes a heartbeat while the lock is ours and reports who took it over", () => {
    const path = join(home.dir, "lease.jsonl.lock");
    const lock = acquireLock(path, "me");
    const first = readLock(path)!.heartbeatAt;
    expect(lock.renew()).toEqual({ ok: true });
    expect(readLock(path)!.heartbeatAt).toBeDefined();
    expect(first).toBeDefined();
    writeFileSync(path, JSON.stringify({ pid: 1, hostname: hostname(), startedAt: "T2", token: "theirs" }));
    const lost = lock.renew();
    expect(lost).toEqual({ ok: false, reason: expect.stringContaining("was taken over by process 1 since T2") });
    const leaseLost: string[] = [];
    const lease = startLease(lock, (r) => leaseLost.push(r), 1_000_000);
    expect(lease.check()).toBe(false);
    expect(lease.check()).toBe(false);
    expect(leaseLost).toHaveLength(1);
    lease.stop();
  });

  it("a lock file that vanished (or whose directory was removed) is taken again by renew; one taken meanwhile is reported", () => {
    const dir = join(home.dir, "sessions");
    mkdirSync(dir);
    const path = join(dir, "s.jsonl.lock");
    const lock = acquireLock(path, "me");
    const token = readLock(path)!.token;
    rmSync(path);
    expect(lock.renew()).toEqual({ ok: true, restored: true });
    expect(readLock(path)).toMatchObject({ pid: process.pid, owner: "me", token });
    rmSync(dir, { recursive: true });
    expect(lock.renew()).toEqual({ ok: true, restored: true });
    expect(readLock(path)?.token).toBe(token);
    expect(lock.renew()).toEqual({ ok: true });
    lock.release();
    expect(existsSync(path)).toBe(false);

    const other = acquireLock(join(dir, "t.jsonl.lock"), "first");
    rmSync(other.path);
    writeFileSync(other.path, JSON.stringify({ pid: 1, hostname: hostname(), startedAt: "T3", token: "theirs" }));
    expect(other.renew()).toEqual({ ok: false, reason: expect.stringContaining("was taken over by process 1 since T3") });
  });

  it("renew after release does nothing: a released lock is never re-created", () => {
    const path = join(home.dir, "s.jsonl.lock");
    const lock = acquireLock(path, "me");
    lock.release();
    expect(lock.renew()).toEqual({ ok: true });
    expect(existsSync(path)).toBe(false);
  });

  it("a vanished lock that cannot be re-created (unwritable location) does not stop the session; a later renewal restores it", () => {
    const dir = join(home.dir, "sessions");
    mkdirSync(dir);
    const path = join(dir, "s.jsonl.lock");
    const lock = acquireLock(path, "me");
    rmSync(dir, { recursive: true });
    writeFileSync(dir, "a file where the directory was");
    expect(lock.renew()).toEqual({ ok: true });
    expect(existsSync(path)).toBe(false);
    rmSync(dir);
    expect(lock.renew()).toEqual({ ok: true, restored: true });
    lock.release();
  });

  it("release leaves a lock that is no longer ours", async () => {
    const path = join(home.dir, "s.jsonl.lock");
    const lock = acquireLock(path);
    const theirs = JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: "t", token: "other" });
    writeFileSync(path, theirs);
    lock.release();
    expect(readFileSync(path, "utf8")).toBe(theirs);
  });
});

describe("SessionStore.lock", () => {
  it("locks a session file and refuses a second writer", () => {
    const store = new SessionStore(home.dir);
    const w = store.create(header({ kind: "child" }));
    const lock = store.lock(w.id, "run 1");
    expect(lock.path).toBe(`${w.path}.lock`);
    expect(() => store.lock(w.id)).toThrow(new RegExp(`session ${w.id} is in use by process ${process.pid}`));
    lock.release();
    expect(existsSync(`${w.path}.lock`)).toBe(false);
    // the lock file never shows up as a session
    store.lock(w.id).release();
    expect(store.list().map((s) => s.id)).toEqual([w.id]);
  });
});
