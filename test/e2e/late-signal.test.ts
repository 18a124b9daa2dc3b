import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true, maxRetries: 5 });
});

/**
 * Runs a short demo answer and, once the answer is out, sends SIGINT every millisecond until
 * the process is gone; resolves with how it ended. Those signals land while Ink is exiting.
 */
function stormAtExit(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const home = mkdtempSync(join(tmpdir(), "ink-late-signal-"));
  homes.push(home);
  const child = spawn(process.execPath, [CLI, "-p", "hi", "--model", "demo"], {
    cwd: join(import.meta.dirname, "../.."),
    env: { ...process.env, INK_HOME: home },
    stdio: ["ignore", "pipe", "ignore"],
  });
  let storm: NodeJS.Timeout | undefined;
  child.stdout.once("data", () => {
    storm = setInterval(() => child.kill("SIGINT"), 1);
  });
  child.stdout.resume();
  return new Promise((resolve) =>
    child.on("exit", (code, signal) => {
      clearInterval(storm);
      resolve({ code, signal });
    }),
  );
}

describe("Ctrl-C pressed while Ink is exiting", () => {
  // Without the explicit exit, a natural exit's teardown restored SIGINT's default action and most
  // such runs were killed by the signal (exit code null: 6 of 10 runs; this test failed 3 times of 3).
  it("never kills the process by the signal: it ends with an exit code", { timeout: 120_000 }, async () => {
    expect(existsSync(CLI), `${CLI} is missing: run npm run build`).toBe(true);
    for (let run = 0; run < 5; run++) {
      const end = await stormAtExit();
      expect(end, `run ${run + 1}`).toMatchObject({ signal: null });
      expect([0, 130]).toContain(end.code);
    }
  });
});
