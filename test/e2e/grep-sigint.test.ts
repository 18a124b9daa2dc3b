/** A catastrophic grep pattern from the model never blocks the CLI: SIGINT still ends the run. */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startFakeAnthropic, sseTurn, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";
import { makeLoginRepo, runCli } from "../helpers/cli.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";

let server: FakeAnthropic;
let repo: string;
let home: string;
beforeAll(async () => {
  server = await startFakeAnthropic();
  repo = makeLoginRepo();
  home = mkdtempSync(join(tmpdir(), "ink-home-"));
});
afterAll(async () => {
  await server.close();
  rmSync(repo, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

it.each([
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const)("a (a+)+$ grep over a long line: %s ends the CLI promptly (the search worker is terminated, not left spinning)", async (signal, code) => {
  writeFileSync(join(repo, "long.txt"), `${"a".repeat(100_000)}b\n`);
  server.reset();
  server.enqueue(sseTurn([{ toolUse: { id: "tu_1", name: "grep", input: { pattern: "(a+)+$" } } }]), sseTurn([{ text: "done" }]));
  let child: { kill(signal: NodeJS.Signals): boolean } | undefined;
  let exited = false;
  const pending = runCli(["-p", "search", "--cwd", repo], { env: { INK_HOME: home, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url }, onSpawn: (c) => (child = c) }).then((r) => {
    exited = true;
    return r;
  });
  for (let i = 0; i < 400 && server.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
  await new Promise((r) => setTimeout(r, 500)); // the grep is now running
  child!.kill(signal);
  await Promise.race([pending, new Promise((r) => setTimeout(r, 5_000))]);
  expect(exited).toBe(true);
  const run = await pending;
  expect(run.code).toBe(code);
});
