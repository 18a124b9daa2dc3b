import { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
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

  it("a vanished file is recreated (header + every entry) from the file it held open, with one notice", () => {
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

  it("does not keep what it wrote: its memory does not grow with the lines in the file", () => {
    home = tempHome();
    const store = new SessionStore(home.dir);
    const w = store.create(header());
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 40; i++) w.append({ type: "message", message: user(`${i}`.padEnd(256 * 1024, "x")) }); // 10 MB of lines
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(3 * 1024 * 1024);
    rmSync(w.path); // what it wrote comes back from the file it holds
    w.append({ type: "message", message: user("last") });
    const messages = store.load(w.id).messages;
    expect(messages).toHaveLength(41);
    expect(messages.at(-1)).toEqual(user("last"));
  });

  it("a file replaced by another (renamed over it) is recreated from the file it held, with one notice", () => {
    home = tempHome();
    const notices: PersistenceNotice[] = [];
    const store = new SessionStore(home.dir);
    const w = store.create(header(), { onNotice: (n) => notices.push(n) });
    w.append({ type: "message", message: user("one") });
    writeFileSync(`${w.path}.other`, readFileSync(w.path, "utf8").split("\n")[0] + "\n");
    renameSync(`${w.path}.other`, w.path);
    w.append({ type: "message", message: user("two") });
    expect(notices.map((n) => n.message)).toEqual([expect.stringMatching(/was replaced; recreated it .*header \+ 2 entries\)$/)]);
    expect(store.load(w.id).messages).toEqual([user("one"), user("two")]);
  });

  it("a file cut short in place is recreated with what it still holds and the new line, and the notice says what was lost", () => {
    home = tempHome();
    const notices: PersistenceNotice[] = [];
    const store = new SessionStore(home.dir);
    const w = store.create(header(), { onNotice: (n) => notices.push(n) });
    w.append({ type: "message", message: user("one") });
    w.append({ type: "message", message: user("two") });
    const text = readFileSync(w.path, "utf8");
    truncateSync(w.path, text.lastIndexOf("\n", text.length - 2) + 5); // "two" cut in its middle
    w.append({ type: "message", message: user("three") });
    expect(notices.map((n) => n.message)).toEqual([expect.stringMatching(/was cut short; recreated it .*header \+ 2 entries\); 1 lines cut from it could not be brought back/)]);
    expect(store.load(w.id).messages).toEqual([user("one"), user("three")]);
    w.append({ type: "message", message: user("four") });
    expect(notices).toHaveLength(1);
    expect(store.load(w.id).messages).toEqual([user("one"), user("three"), user("four")]);
  });

  it("close lets go of the file it held open; a later append holds it again", () => {
    home = tempHome();
    const store = new SessionStore(home.dir);
    const open = () => readdirSync("/proc/self/fd").length;
    const before = open();
    const w = store.create(header());
    w.append({ type: "message", message: user("one") });
    expect(open()).toBe(before + 1);
    w.close();
    expect(open()).toBe(before);
    w.append({ type: "message", message: user("two") });
    rmSync(w.path);
    w.append({ type: "message", message: user("three") });
    w.close();
    expect(open()).toBe(before);
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
