import { fork } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRecord, recordPath } from "../../src/session/latest-record.js";
import { SessionStore } from "../../src/session/store.js";
import { tempHome } from "./helpers.js";

let home: ReturnType<typeof tempHome>;
let racer: string;

beforeAll(() => {
  home = tempHome();
  racer = join(home.dir, "racer.mjs");
  buildSync({ entryPoints: [join(import.meta.dirname, "latest-racer.ts")], bundle: true, platform: "node", format: "esm", outfile: racer, logLevel: "error" });
});
afterAll(() => home.cleanup());

function race(inkHome: string, cwd: string, processes: number, rounds: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: processes }, () =>
      new Promise<number>((resolveExit) => {
        const child = fork(racer, [inkHome, cwd, String(rounds)], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
        child.on("exit", (code) => resolveExit(code ?? -1));
      }),
    ),
  );
}

describe("latest main session with processes racing", () => {
  it("the record keeps every candidate and gives the listing's answer", { timeout: 60_000 }, async () => {
    const inkHome = join(home.dir, "home");
    const cwd = join(tmpdir(), "ink-race-project");
    expect(await race(inkHome, cwd, 4, 60)).toEqual([0, 0, 0, 0]);
    const store = new SessionStore(inkHome);
    const sessions = store.list({ cwd, kind: "main" });
    const open = store.index.lastOpen;
    // The invariant, before anything rebuilds the record: a session it does not name is closed
    // and sorts after its best closed candidate.
    const path = recordPath(store.dir, cwd);
    expect(existsSync(path)).toBe(true);
    const record = parseRecord(readFileSync(path, "utf8"));
    expect(record.torn).toBe(false);
    const last = new Map(record.events.map((e) => [e.id, e]));
    for (const s of sessions.filter((x) => open.has(x.id))) expect(last.get(s.id)?.open, `open session ${s.id}`).toBe(true);
    expect(record.base).toBeDefined();
    {
      const closed = sessions.filter((s) => last.get(s.id)?.open === false);
      const bestRank = Math.min(...closed.map((s) => sessions.indexOf(s)));
      sessions.forEach((s, rank) => {
        if (!last.has(s.id)) expect(rank, `session ${s.id} is neither named nor after the best closed one`).toBeGreaterThan(bestRank);
      });
    }
    const want = sessions[0]?.id;
    expect(want).toBeDefined();
    expect(new SessionStore(inkHome).latestMain(cwd)).toBe(want);
    const fresh = new SessionStore(inkHome);
    expect(fresh.latestMain(cwd)).toBe(want);
    expect(fresh.latest.lastStats.path).toBe("fast");
    expect(open.size).toBeGreaterThanOrEqual(4); // each racer left its last session open
  });
});
