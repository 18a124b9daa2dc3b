/**
 * A process racing others on one INK_HOME (forked by latest-session-race.test.ts): creates,
 * writes, closes and resumes main sessions of a cwd (some of another cwd, some children) and
 * asks for the latest one now and then, which rebuilds or compacts the record when it must.
 * Leaves its last session open (not released), as a crashed or still-running Ink would.
 * argv: inkHome cwd rounds
 */
import { SessionStore } from "../../src/session/store.js";

const [home, cwd, roundsText] = process.argv.slice(2) as [string, string, string];
const store = new SessionStore(home);
const mine: string[] = [];

const header = (kind: "main" | "child", at: string) => ({ kind, cwd: at, provider: "scripted", model: "m", fingerprint: "f", toolNames: [] });

function session(kind: "main" | "child", at: string, release = true): string {
  const w = store.create(header(kind, at));
  const lock = store.lock(w.id);
  w.append({ type: "message", message: { role: "user", content: `hello from ${process.pid}` } });
  if (release) lock.release();
  return w.id;
}

const rounds = Number(roundsText);
for (let r = 0; r < rounds; r++) {
  const pick = (r * 7 + process.pid) % 10;
  if (pick < 4) mine.push(session("main", cwd));
  else if (pick === 4) session("main", `${cwd}-other`);
  else if (pick === 5) session("child", cwd);
  else if (pick < 8 && mine.length > 0) {
    const id = mine[(r * 13) % mine.length]!;
    const lock = store.lock(id);
    const w = store.open(id);
    w.append({ type: "message", message: { role: "user", content: "again" } });
    lock.release();
  } else store.latestMain(cwd);
}
session("main", cwd, false);
process.send?.("done");
