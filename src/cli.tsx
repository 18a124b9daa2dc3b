#!/usr/bin/env node
/**
 * The `ink` command. `--help` / `--version` are answered from a module that imports only node
 * built-ins; everything else loads the core (src/cli/main.ts) by dynamic import, and the TUI
 * (components/, ink, react) only when the interactive UI starts, so headless runs never load it.
 */
import { quickAnswer } from "./cli/usage.js";

const argv = process.argv.slice(2);
const quick = quickAnswer(argv);
if (quick !== undefined) {
  process.stdout.write(quick);
} else {
  const [{ runCli }, { errorMessage }] = await Promise.all([import("./cli/main.js"), import("./protocol/error-message.js")]);
  await runCli(argv, () => import("../components/run-tui.js")).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`ink: ${errorMessage(err)}\n`);
      process.exitCode = 1;
    },
  );
  // The work is done: once the event loop has drained (all output flushed), exit explicitly. A
  // natural exit tears the loop down first, which puts SIGINT/SIGTERM back to their default
  // action, so a Ctrl-C pressed during that teardown would kill the process by the signal.
  process.once("beforeExit", () => process.exit());
}
