/** A catastrophic grep pattern from the model never blocks the CLI: SIGINT still ends the run. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { sseTurn } from "../helpers/fake-anthropic-server.js";
import { cliFixture, runCli } from "../helpers/cli.js";

const fx = cliFixture();

it.each([
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const)("a (a+)+$ grep over a long line: %s ends the CLI promptly (the search worker is terminated, not left spinning)", async (signal, code) => {
  writeFileSync(join(fx.repo, "long.txt"), `${"a".repeat(100_000)}b\n`);
  fx.server.reset();
  fx.server.enqueue(sseTurn([{ toolUse: { id: "tu_1", name: "grep", input: { pattern: "(a+)+$" } } }]), sseTurn([{ text: "done" }]));
  let child: { kill(signal: NodeJS.Signals): boolean } | undefined;
  let exited = false;
  const pending = runCli(["-p", "search", "--cwd", fx.repo], { env: { INK_HOME: fx.home, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fx.server.url }, onSpawn: (c) => (child = c) }).then((r) => {
    exited = true;
    return r;
  });
  for (let i = 0; i < 400 && fx.server.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
  await new Promise((r) => setTimeout(r, 500)); // the grep is now running
  child!.kill(signal);
  await Promise.race([pending, new Promise((r) => setTimeout(r, 5_000))]);
  expect(exited).toBe(true);
  const run = await pending;
  expect(run.code).toBe(code);
});
