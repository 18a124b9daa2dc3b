/**
 * Hooks the checkpoint store into the pre-execution check every agent's tool calls pass through
 * (the main agent and every child get the same `onToolCall`): once a call of `edit`, `write` or
 * `bash` in the shared working tree is allowed, its snapshot is taken before it runs, and the
 * change is recorded after it returned. Worktree children (another working directory) are not
 * checkpointed: their branch is their record. A failing snapshot never stops the call; it is
 * reported once through `onProblem`.
 */
import { resolve } from "node:path";
import type { OnToolCall, ToolDecision } from "../core/tool-runner.js";
import { errorMessage } from "../protocol/error-message.js";
import type { CheckpointStore } from "./store.js";

/** Tools whose `path` argument names the one file they change. */
const FILE_TOOLS = new Set(["edit", "write"]);

export function withCheckpoints(inner: OnToolCall, store: () => CheckpointStore | undefined, cwd: string, onProblem: (message: string) => void = () => undefined): OnToolCall {
  const root = resolve(cwd);
  let reported = false;
  const problem = (err: unknown) => {
    if (reported) return;
    reported = true;
    onProblem(`checkpoints are off for this change and may be incomplete: ${errorMessage(err)}`);
  };
  const check = (async (call, agent, tool) => {
    const decision: ToolDecision = await inner(call, agent, tool);
    const s = store();
    if (!decision.allow || !s || (!FILE_TOOLS.has(call.name) && call.name !== "bash")) return decision;
    const agentCwd = resolve(agent.cwd ?? root);
    if (agentCwd !== root && !agentCwd.startsWith(root + "/")) return decision; // a worktree child
    const args = (decision.input ?? call.arguments) as { path?: unknown };
    let paths: string[] | undefined;
    if (FILE_TOOLS.has(call.name)) {
      const rel = typeof args.path === "string" ? s.relativePath(args.path, agentCwd) : undefined;
      if (!rel) return decision; // outside the project: not ours to restore
      paths = [rel];
    }
    try {
      await s.before(call.id, { id: agent.id, label: agent.label, ...(agent.description ? { description: agent.description } : {}) }, call.name, paths);
    } catch (err) {
      problem(err);
    }
    return decision;
  }) as OnToolCall;
  check.after = async (call, result, agent) => {
    const extra = inner.after ? await inner.after(call, result, agent) : undefined;
    try {
      await store()?.after(call.id);
    } catch (err) {
      problem(err);
    }
    return extra;
  };
  // What deny rules hide from grep/find/ls travels with the check (without it a session's grep
  // printed the files a Read deny rule covers).
  if (inner.hides) check.hides = inner.hides;
  return check;
}
