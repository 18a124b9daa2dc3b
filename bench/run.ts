/**
 * Benchmarks: prints figures, asserts nothing. Run with `npm run bench` (after a build).
 * - CLI start-up (`ink --version`), median of several spawns
 * - print mode with the demo model end to end (two parallel children) on a generated repo
 * - agent-loop overhead per turn with the scripted provider
 * - parallel children: wall time of 8 children (each ~50 ms) at caps 1, 4 and 8
 * - the TUI reducer folding the events of 8 streaming children
 * - grep over a generated tree of 3000 files
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runAgentLoop } from "../src/core/loop.js";
import { createScriptedProvider } from "../src/providers/scripted.js";
import { createTaskTool } from "../src/subagents/task-tool.js";
import { grepTool } from "../src/tools/grep.js";
import type { AnyTool } from "../src/protocol/tool.js";
import { benchReducer } from "./ui-reducer.js";

const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "cli.js");

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function timeSpawn(args: string[], env: NodeJS.ProcessEnv = {}): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, [cli, ...args], { env: { ...process.env, ANTHROPIC_API_KEY: "", ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`ink ${args.join(" ")} failed: ${r.stderr}`);
  return performance.now() - t;
}

function makeRepo(files: number): string {
  const dir = mkdtempSync(join(tmpdir(), "ink-bench-"));
  for (let i = 0; i < files; i++) {
    const path = join(dir, "src", `mod${i % 30}`, `file${i}.ts`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `export function f${i}(x: number) {\n  return x + ${i};\n}\n// filler line\n`.repeat(5));
  }
  mkdirSync(join(dir, "src", "auth"), { recursive: true });
  writeFileSync(join(dir, "src", "auth", "login.ts"), "export function handleLogin() {\n  return true;\n}\n");
  execFileSync("git", ["init", "-q"], { cwd: dir });
  return dir;
}

async function loopOverhead(turns: number): Promise<number> {
  const echo: AnyTool = (await import("../src/tools/ls.js")).lsTool;
  // Fixed usage: the scripted provider's default usage estimate would serialise the whole history every turn.
  const usage = { input: 100, output: 10 };
  const provider = createScriptedProvider((_r, i) => (i < turns - 1 ? { toolCalls: [{ name: "ls", arguments: {} }], usage } : { text: "done", usage }));
  const cwd = mkdtempSync(join(tmpdir(), "ink-bench-loop-"));
  const t = performance.now();
  await runAgentLoop({ provider, model: "m", system: "s", tools: [echo], history: [], userMessage: "go", cwd });
  const perTurn = (performance.now() - t) / turns;
  rmSync(cwd, { recursive: true, force: true });
  return perTurn;
}

async function parallelChildren(children: number, cap: number, childMs: number): Promise<number> {
  const inkHome = mkdtempSync(join(tmpdir(), "ink-bench-home-"));
  const provider = createScriptedProvider(async (r) => {
    if (r.system.includes("# Subagent mode")) {
      await new Promise((res) => setTimeout(res, childMs));
      return { text: "child done" };
    }
    return r.messages.length === 1 ? { toolCalls: Array.from({ length: children }, (_, i) => ({ name: "task", arguments: { prompt: `job ${i}` } })) } : { text: "all done" };
  });
  const tools: AnyTool[] = [];
  tools.push(createTaskTool({ provider, model: "m", getSystem: () => "s", getTools: () => tools, profiles: [], inkHome, maxConcurrent: cap }));
  const t = performance.now();
  await runAgentLoop({ provider, model: "m", system: "s", tools, history: [], userMessage: "go", cwd: tmpdir() });
  rmSync(inkHome, { recursive: true, force: true });
  return performance.now() - t;
}

async function main(): Promise<void> {
  const row = (name: string, value: string) => console.log(`${name.padEnd(52)} ${value}`);
  console.log("Ink benchmarks (lower is better)\n");
  row("cli start-up: ink --version (median of 7)", `${median(Array.from({ length: 7 }, () => timeSpawn(["--version"]))).toFixed(0)} ms`);

  const repo = makeRepo(300);
  const home = mkdtempSync(join(tmpdir(), "ink-bench-home-"));
  const env = { INK_HOME: home, INK_DEMO_DELAY_MS: "0" };
  row("print mode, demo model, 2 parallel children (median of 5)", `${median(Array.from({ length: 5 }, () => timeSpawn(["-p", "where is the login handled?", "--cwd", repo], env))).toFixed(0)} ms`);
  rmSync(home, { recursive: true, force: true });
  rmSync(repo, { recursive: true, force: true });

  await loopOverhead(20);
  row("agent loop: per turn (scripted model + ls), 200 turns", `${(await loopOverhead(200)).toFixed(2)} ms/turn`);

  for (const cap of [1, 4, 8]) row(`8 children × 50 ms, cap ${cap}`, `${(await parallelChildren(8, cap, 50)).toFixed(0)} ms (ideal ${Math.ceil(8 / cap) * 50} ms)`);

  const ui = await benchReducer(8);
  row("TUI reducer: event stream of 8 streaming children", `${ui.events} events in ${ui.ms.toFixed(0)} ms (${(ui.events / ui.ms).toFixed(0)} events/ms)`);

  const tree = makeRepo(3000);
  const ctrl = new AbortController();
  const t = performance.now();
  const out = await grepTool.execute({ pattern: "handleLogin" }, { signal: ctrl.signal, cwd: tree, toolCallId: "bench" });
  row("grep over 3000 files (15k lines)", `${(performance.now() - t).toFixed(0)} ms (${out.output.split("\n").length} line(s) of output)`);
  rmSync(tree, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
