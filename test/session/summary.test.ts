/** A session's title (the person's first question after a run of theirs created the file) is read from the file's head only. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../src/session/store.js";
import { titleOf } from "../../src/session/summary.js";
import { assistant, header, tempHome, user } from "./helpers.js";

let home: ReturnType<typeof tempHome>;
let store: SessionStore;

beforeEach(() => {
  home = tempHome();
  store = new SessionStore(home.dir);
});
afterEach(() => home.cleanup());

/** A file created without a prompt, holding a child's run (a shell note here) before the person's first question. */
function untitled() {
  const w = store.create(header());
  w.append({ type: "shell", command: "ls", output: "a.txt", isError: false });
  return w;
}

describe("titleOf", () => {
  it("finds the title before the conversation however long the conversation grew after it (more than 4 MB)", () => {
    const w = untitled();
    w.append({ type: "title", prompt: "what did it find?" });
    w.append({ type: "message", message: user("what did it find?") });
    const long = "x".repeat(64 * 1024);
    for (let i = 0; i < 80; i++) w.append({ type: "message", message: assistant(long) });
    expect(store.list({ kind: "main" }).find((s) => s.id === w.id)?.size).toBeGreaterThan(5 * 1024 * 1024);
    expect(titleOf(w.path)).toBe("what did it find?");
  });

  it("stops at the first message: a file whose conversation began without a title entry (before titles existed) has none", () => {
    const w = untitled();
    w.append({ type: "message", message: user("an older file's question") });
    // Never written by Ink after a message; here it shows the conversation is not read.
    w.append({ type: "title", prompt: "later" });
    expect(titleOf(w.path)).toBeUndefined();
  });

  it("a file with no question yet has no title", () => {
    const w = untitled();
    expect(titleOf(w.path)).toBeUndefined();
  });
});
