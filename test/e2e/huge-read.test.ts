/** A real CLI process reads a 600 MB one-line file the model asked for: clipped with a note, never a crash. */
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { sseTurn } from "../helpers/fake-anthropic-server.js";
import { cliFixture, runCli } from "../helpers/cli.js";

const fx = cliFixture();

it("read of a 600 MB one-line file: the model gets a clipped line with a note, and the run answers", async () => {
  const path = join(fx.repo, "huge.txt");
  const fd = openSync(path, "w");
  const block = Buffer.alloc(1024 * 1024, "a");
  for (let i = 0; i < 600; i++) writeSync(fd, block);
  writeSync(fd, "\nsecond line\n");
  closeSync(fd);
  try {
    fx.server.enqueue(sseTurn([{ toolUse: { id: "tu_1", name: "read", input: { path: "huge.txt" } } }]), sseTurn([{ text: "read it" }]));
    const run = await runCli(["-p", "read huge.txt", "--cwd", fx.repo], { env: { INK_HOME: fx.home, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fx.server.url } });
    expect(run.stderr).not.toMatch(/RangeError|Invalid string length/);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("read it");
    const result = JSON.stringify(fx.server.requests[1]!.body.messages.at(-1));
    expect(result).toMatch(/… \[line truncated, \d+ more chars\]/);
    expect(result).toContain("second line");
    expect(result.length).toBeLessThan(200_000);
  } finally {
    rmSync(path, { force: true });
  }
}, 120_000);
