/**
 * UI throughput: how fast the TUI's state reducer folds the event stream of 8 parallel children
 * (each streaming 300 text deltas and 20 tool calls) — the work done per frame is a batch of these.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initialStreamState, reduceStream } from "../components/state/agent-stream-reducer.js";
import type { StreamAction } from "../components/state/agent-stream-reducer.js";
import { AgentSession } from "../src/host/agent-session.js";
import type { AgentEvent } from "../src/protocol/events.js";
import { createScriptedProvider } from "../src/providers/scripted.js";

/** Records the events of one run with `children` children; returns them with timestamps. */
async function recordRun(children: number): Promise<StreamAction[]> {
  const home = mkdtempSync(join(tmpdir(), "ink-bench-ui-"));
  let childCalls = 0;
  const provider = createScriptedProvider((r) => {
    if (r.system.includes("# Subagent mode")) {
      const n = ++childCalls;
      return n % 21 === 0 ? { text: "report ".repeat(40) } : { text: "word ".repeat(15 * 16), toolCalls: [{ name: "ls", arguments: {} }] };
    }
    return r.messages.length === 1 ? { toolCalls: Array.from({ length: children }, (_, i) => ({ name: "task", arguments: { prompt: `job ${i}` } })) } : { text: "done" };
  });
  const session = new AgentSession({ cwd: home, inkHome: home, provider, model: "m", interactive: true, approval: {}, maxConcurrentChildren: children });
  const events: AgentEvent[] = [];
  await session.prompt("go", { onEvent: (e) => events.push(e) });
  session.close();
  rmSync(home, { recursive: true, force: true });
  let at = 0;
  return [{ type: "run_start", text: "go", at }, ...events.map((event) => ({ type: "event" as const, event, at: (at += 1) })), { type: "run_end", at }];
}

/** Reduces a recorded run of `children` children; returns the number of actions and the time taken. */
export async function benchReducer(children = 8): Promise<{ events: number; ms: number }> {
  const actions = await recordRun(children);
  let state = initialStreamState();
  for (const a of actions) state = reduceStream(state, a); // warm-up
  const t = performance.now();
  state = initialStreamState();
  for (const a of actions) state = reduceStream(state, a);
  return { events: actions.length, ms: performance.now() - t };
}
