import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { PersistenceNotice } from "../../src/session/durable-writer.js";
import { SessionStore } from "../../src/session/store.js";
import { header, tempHome, user } from "./helpers.js";
import { bindReadOnly } from "../helpers/full-disk.js";

let home: ReturnType<typeof tempHome>;
afterEach(() => home.cleanup());

describe("durable session writer", () => {
  it("an unwritable location: the session goes on in memory with one notice, and retry writes everything once it is writable", () => {
    home = tempHome();
    writeFileSync(join(home.dir, "sessions"), "not a directory"); // mkdir fails: ENOTDIR / EEXIST
    const notices: PersistenceNotice[] = [];
    const store = new SessionStore(home.dir);
    const w = store.create(header(), { onNotice: (n) => notices.push(n) });
    expect(w.inMemory).toBe(true);
    w.append({ type: "message", message: user("one") });
    w.append({ type: "message", message: user("two") });
    expect(notices.map((n) => n.kind)).toEqual(["in-memory"]);
    expect(notices[0]!.message).toMatch(/cannot be created .*goes on in memory/);
    rmSync(join(home.dir, "sessions"));
    mkdirSync(join(home.dir, "sessions"));
    expect(w.retry()).toBe(true);
    expect(w.inMemory).toBe(false);
    expect(notices.map((n) => n.kind)).toEqual(["in-memory", "restored"]);
    expect(store.load(w.id).messages).toEqual([user("one"), user("two")]);
    expect(w.failure).toMatch(/E[A-Z]+/); // the first failure is remembered
  });

  it("a vanished file is recreated from memory (header + every entry) with one notice", () => {
    home = tempHome();
    const notices: PersistenceNotice[] = [];
    const store = new SessionStore(home.dir);
    const w = store.create(header(), { onNotice: (n) => notices.push(n) });
    w.append({ type: "message", message: user("one") });
    rmSync(w.path);
    w.append({ type: "message", message: user("two") });
    w.append({ type: "message", message: user("three") });
    expect(notices.map((n) => n.kind)).toEqual(["recreated"]);
    expect(store.load(w.id).messages).toEqual([user("one"), user("two"), user("three")]);
  });

  it("stop: nothing more is written", () => {
    home = tempHome();
    const store = new SessionStore(home.dir);
    const w = store.create(header());
    w.append({ type: "message", message: user("one") });
    w.stop("lock taken over");
    w.append({ type: "message", message: user("two") });
    expect(store.load(w.id).messages).toEqual([user("one")]);
    expect(w.failure).toBe("lock taken over");
  });

  it("open() on a file that can be read but not written (read-only mount): in memory with one notice, the torn tail left out, saved clean later", (ctx) => {
    home = tempHome();
    const store = new SessionStore(home.dir);
    const w = store.create(header());
    w.append({ type: "message", message: user("one") });
    appendFileSync(w.path, '{"type":"message","mess'); // a torn last line from a crash
    const unmount = bindReadOnly(store.dir);
    if (!unmount) return ctx.skip(); // read-only mounts are not allowed here
    const notices: PersistenceNotice[] = [];
    let reopened;
    try {
      reopened = store.open(w.id, { onNotice: (n) => notices.push(n) });
      expect(reopened.inMemory).toBe(true);
      reopened.append({ type: "message", message: user("two") });
      expect(notices.map((n) => n.kind)).toEqual(["in-memory"]);
      expect(notices[0]!.message).toMatch(/cannot be written \(EROFS.*\); the session goes on in memory/);
    } finally {
      unmount();
    }
    expect(reopened.retry()).toBe(true);
    expect(readFileSync(w.path, "utf8")).not.toContain('"mess\n');
    const loaded = store.load(w.id);
    expect(loaded.messages).toEqual([user("one"), user("two")]);
    expect(loaded.notes).toEqual([]);
  });
});
