/**
 * The checkpoint store over a long session (issue #40): more turns and more bytes than its bound
 * (made small here; the default is the last 100 turns and 256 MB). After every turn the store is
 * within the bound, the oldest turns are gone, and both `/rewind` (the listing) and a rewind to
 * one of them say they can no longer be rewound and why.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { rewindListing } from "../../src/checkpoints/rewind.js";
import { AgentSession } from "../../src/host/agent-session.js";
import { userText, type UserMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { git, tempDir } from "../helpers/temp-git.js";

const sessions: AgentSession[] = [];
afterEach(() => sessions.splice(0).forEach((s) => s.close()));

/** A session whose main agent, asked "N", writes `f<N>.txt` (or big.txt, with `big`) with `write`. */
function start(checkpoints: { maxTurns?: number; maxBytes?: number }, big = false) {
  const cwd = tempDir("ink-bound-cwd-");
  git(cwd, "init", "-q");
  writeFileSync(join(cwd, "README.md"), "r\n");
  git(cwd, "add", "-A");
  git(cwd, "commit", "-qm", "init");
  const inkHome = tempDir("ink-bound-home-");
  const provider = createScriptedProvider((r) => {
    const last = r.messages.at(-1)!;
    if (last.role !== "user") return { text: "written" };
    const n = userText(last as UserMessage).trim();
    // incompressible content: each version of big.txt adds its full size to the store
    return { toolCalls: [{ name: "write", arguments: { path: big ? "big.txt" : `f${n}.txt`, content: big ? randomBytes(60 * 1024).toString("base64") : `turn ${n}\n` } }] };
  });
  const session = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: true, approval: { mode: "yolo" } as never, checkpoints });
  sessions.push(session);
  const storeBytes = () => {
    const out = execFileSync("git", ["--git-dir", join(inkHome, "checkpoints", session.sessionId, "git"), "count-objects", "-v"], { encoding: "utf8" });
    const kb = (key: string) => Number(new RegExp(`^${key}: (\\d+)`, "m").exec(out)?.[1] ?? 0);
    return (kb("size") + kb("size-pack")) * 1024;
  };
  return { session, storeBytes };
}

it("keeps the last maxTurns turns over a longer session; the dropped ones say they can no longer be rewound", async () => {
  const { session } = start({ maxTurns: 4 });
  for (let n = 1; n <= 10; n++) {
    await session.prompt(String(n));
    expect((await session.rewindTurns()).length).toBeLessThanOrEqual(4);
  }
  const turns = await session.rewindTurns();
  expect(turns.map((t) => t.turn)).toEqual([7, 8, 9, 10]);
  expect(turns[0]!.changes[0]!.files).toEqual([{ path: "f7.txt", added: 1, removed: 0 }]);
  const listing = rewindListing(turns, session.checkpointBound);
  expect(listing[1]).toBe("  turns 1–6 can no longer be rewound: their checkpoints were dropped to keep the store to its bound (the last 4 turns, at most 256 MB of snapshots)");
  const r = await session.rewind(2, { files: true, conversation: false });
  expect(r).toMatchObject({ ok: false, restored: [] });
  expect(r.message).toBe("turn 2 can no longer be rewound: its checkpoints were dropped to keep the store to its bound (the last 4 turns, at most 256 MB of snapshots); turns 7–10 are kept");
  // the kept ones still rewind
  expect((await session.rewind(7, { files: true, conversation: false })).restored.sort()).toEqual(["f10.txt", "f7.txt", "f8.txt", "f9.txt"]);
});

it("keeps the snapshots under maxBytes after every turn of a session that writes more, dropping the oldest turns", async () => {
  const maxBytes = 400 * 1024;
  const { session, storeBytes } = start({ maxBytes }, true);
  for (let n = 1; n <= 12; n++) {
    await session.prompt(String(n)); // ~80 KB a version of big.txt: 12 turns are ~1 MB
    expect(storeBytes()).toBeLessThanOrEqual(maxBytes);
  }
  const turns = await session.rewindTurns();
  expect(turns.length).toBeGreaterThan(0);
  expect(turns.at(-1)!.turn).toBe(12);
  expect(turns[0]!.turn).toBeGreaterThan(1);
  const listing = rewindListing(turns, session.checkpointBound);
  expect(listing[1]).toContain(`can no longer be rewound: their checkpoints were dropped to keep the store to its bound (the last 100 turns, at most 400 KB of snapshots)`);
  expect((await session.rewind(1)).message).toMatch(/^turn 1 can no longer be rewound: .*; turns \d+–12 are kept$/);
});
