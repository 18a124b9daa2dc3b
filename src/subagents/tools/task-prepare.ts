/**
 * Everything a `task` call settles before its child starts: a new child's profile, tool pool,
 * model, thinking and system prompt; or, to resume a saved child, its session lock (taken before
 * its history is read) and the checks that it can continue here. A refusal is the tool result
 * that explains it (task-refusals.ts).
 */
import { existsSync } from "node:fs";
import type { AgentMessage } from "../../protocol/messages.js";
import type { ThinkingConfig } from "../../protocol/provider.js";
import type { AnyTool, ToolContext, ToolOutput } from "../../protocol/tool.js";
import { errorMessage } from "../../protocol/error-message.js";
import { parseThinking } from "../../protocol/field-parsers.js";
import { isSafeSessionId, newSessionId } from "../../session/ids.js";
import type { SessionLock } from "../../session/lock.js";
import type { LoadedSession } from "../../session/types.js";
import { childSystemPrompt, selectChildToolPool, SubagentConfigError } from "../runtime/child-prompt.js";
import type { AgentProfile } from "../profiles/profile-parse.js";
import { checkResumable, childModelWarning, resolveChildModel, resolveDispatchModel } from "../runtime/resume-check.js";
import { formatChildrenList, notStartedResult, resumeRefusedResult, unknownAgentResult } from "./task-refusals.js";
import type { TaskArgs } from "./task-schema.js";
import type { TaskToolOptions } from "./task-options.js";

/** Everything known before a child starts. */
export interface Prepared {
  childId: string;
  profile?: AgentProfile;
  tools: AnyTool[];
  model: string;
  /** "task" when the call's `model` argument chose it (saved in the header; resume keeps it). */
  modelFrom?: "task";
  /** Thinking chosen by the call (or saved in a resumed child's header). */
  thinking?: ThinkingConfig;
  system: string;
  initialHistory?: AgentMessage[];
  /** Set for resumed children: the cwd they were created in. */
  cwd?: string;
  resumed: boolean;
  /** A resumed child's session lock, taken before its history was read. */
  lock?: SessionLock;
  /** A resumed child's saved transcript (repairs, lifetime totals, messages to persist). */
  loaded?: LoadedSession;
  /** A resumed child's kept worktree. */
  keptWorktree?: { path: string; branch: string };
  /** MCP tools its profile lists that this session does not have: it runs without them. */
  skippedTools?: string[];
  /** The provider's model list lacks the child's own model (it runs on it all the same). */
  modelWarning?: string;
  /** A resumed child's saved description (it keeps it) and first prompt (its label when it has none). */
  saved?: { description?: string; prompt?: string };
}

/** Settles a new child: its profile (an unknown `agent` is refused), tool pool, model, thinking and system prompt. */
export function prepareNew(options: TaskToolOptions, byName: Map<string, AgentProfile>, args: TaskArgs): Prepared | { error: ToolOutput } {
  const profile = args.agent === undefined ? undefined : byName.get(args.agent);
  if (args.agent !== undefined && !profile) return { error: unknownAgentResult(args.agent, [...byName.keys()], options.untrustedProfileFiles) };
  try {
    const skipped: string[] = [];
    const tools = selectChildToolPool(options.getTools(), profile, skipped);
    const model = args.model !== undefined ? resolveDispatchModel(options.provider, args.model, options.model) : resolveChildModel(options.provider, options.model, profile);
    const own = args.model !== undefined || profile?.model !== undefined;
    const modelWarning = own ? childModelWarning(options.provider, model, args.model !== undefined ? "task model" : `agent "${profile!.name}" model`) : undefined;
    let thinking: ThinkingConfig | undefined;
    if (args.thinking !== undefined) {
      const parsed = parseThinking(args.thinking);
      if (!parsed.ok) return { error: notStartedResult(`task thinking: ${parsed.message}`) };
      thinking = parsed.value;
    }
    return { childId: newSessionId(), profile, tools, model, ...(args.model !== undefined ? { modelFrom: "task" as const } : {}), thinking, system: childSystemPrompt(options.getSystem(), profile, tools), resumed: false, ...(skipped.length ? { skippedTools: skipped } : {}), ...(modelWarning ? { modelWarning } : {}) };
  } catch (err) {
    if (err instanceof SubagentConfigError) return { error: notStartedResult(err.message) };
    throw err;
  }
}

/**
 * Locks child session `id` (before reading it, so no other run appends in between) and checks it
 * can continue here. A refusal lists every reason; an unknown id lists this session's children.
 */
export function prepareResume(options: TaskToolOptions, id: string, ctx: ToolContext): Prepared | { error: ToolOutput } {
  const store = options.store;
  if (!store) return { error: resumeRefusedResult(id, ["this run does not save child sessions."]) };
  if (!isSafeSessionId(id) || !existsSync(store.path(id))) {
    return { error: resumeRefusedResult(id, [`there is no child session with this id in ${store.dir}.`], childrenList(options)) };
  }
  const reasons: string[] = [];
  let lock: SessionLock | undefined;
  try {
    lock = store.lock(id, `resume from ${ctx.toolCallId}`);
  } catch (err) {
    // An unwritable location (read-only, full) never blocks the work: the child resumes in memory, unlocked.
    if (typeof (err as NodeJS.ErrnoException).code !== "string") reasons.push(errorMessage(err));
  }
  const check = checkResumable({ ...options, store, id, parentCwd: ctx.cwd });
  if (!check.ok || reasons.length > 0) {
    lock?.release();
    return { error: resumeRefusedResult(id, [...reasons, ...(check.ok ? [] : check.reasons)]) };
  }
  return {
    childId: id,
    profile: check.profile,
    tools: check.tools,
    model: check.model,
    modelFrom: check.modelFrom,
    thinking: check.thinking,
    system: check.system,
    initialHistory: check.loaded.messages,
    cwd: check.cwd,
    resumed: true,
    lock,
    loaded: check.loaded,
    keptWorktree: check.worktree,
    saved: { description: check.loaded.header.description, prompt: check.loaded.header.prompt },
  };
}

/** This session's saved children with their status (see formatChildrenList). */
function childrenList(options: TaskToolOptions): string {
  if (!options.store || options.parentSessionId === undefined) return formatChildrenList([]);
  return formatChildrenList(options.store.list({ parentId: options.parentSessionId, kind: "child" }));
}

