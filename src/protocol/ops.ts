/**
 * Ops: the one vocabulary of what a front end (the TUI, print mode, `--mode rpc`, `--acp`) can ask
 * of a session, validated with zod. A front end builds an op and hands it to
 * `AgentSession.submit(op)` (src/host/session-submit.ts dispatches it); what happens comes back as
 * AgentEvents (events.ts). The model is Codex's `Op` enum and submission queue: ops in, events out.
 * The control channel's commands (src/rpc/commands.ts) are some of these ops plus an `id`, read by the same `parseOp`.
 */
import { z } from "zod";
import { closestWord } from "./edit-distance.js";

const text = z.string().refine((t) => t.trim() !== "", "must not be empty");
const childId = z.string().min(1);
const requestId = z.string().min(1);

/** Each op's schema, by its `type` (the order the control channel's docs list its commands, then the rest). */
export const OP_SCHEMAS = {
  /** A user request to the main agent, run to the end. */
  prompt: z.object({ type: z.literal("prompt"), text }),
  /** Text for the main agent while a prompt runs, or for running child `child`; read at its next turn boundary. */
  steer: z.object({ type: z.literal("steer"), text, child: childId.optional() }),
  /** Stops running child `child`; without one, every run submitted to the session. */
  abort: z.object({ type: z.literal("abort"), child: childId.optional() }),
  /** Answers approval question `requestId`: allow the call. */
  approve: z.object({ type: z.literal("approve"), requestId }),
  /** Answers approval question `requestId`: refuse the call (`reason` goes to the model). */
  deny: z.object({ type: z.literal("deny"), requestId, reason: z.string().optional() }),
  /** The session's facts: ids, file, provider, model, permission mode, running children, the checkpoint bound. */
  get_state: z.object({ type: z.literal("get_state") }),
  /** The session's children with their state. */
  list_children: z.object({ type: z.literal("list_children") }),
  /** Continues finished child `child` with `text` (its report goes to the main agent with the next prompt). */
  resume_child: z.object({ type: z.literal("resume_child"), child: childId, text }),
  /** The session's kept worktree branches (`/merge`). */
  list_branches: z.object({ type: z.literal("list_branches") }),
  /** Merges kept branches (names or 1-based positions, or "all") into the current branch. */
  merge: z.object({
    type: z.literal("merge"),
    branches: z.union([z.literal("all"), z.array(z.union([z.string().min(1), z.number().int().min(1)])).min(1)]),
    squash: z.boolean().optional(),
    allowDirty: z.boolean().optional(),
  }),
  /** Hands the conflict the last merge stopped at to its branch's own child (resumed in its worktree), then goes on merging (`/merge hand`). */
  merge_hand: z.object({ type: z.literal("merge_hand") }),
  /** The main turns kept in the checkpoint store (`/rewind`). */
  list_turns: z.object({ type: z.literal("list_turns") }),
  /** Takes files and/or the conversation back to just before main turn `turn`. */
  rewind: z.object({
    type: z.literal("rewind"),
    turn: z.number().int().min(1),
    files: z.boolean().optional(),
    conversation: z.boolean().optional(),
    force: z.boolean().optional(),
    stopChildren: z.boolean().optional(),
  }),
  /** Answers budget question `requestId` (a reached budget): stop, or add that many tokens / dollars. */
  answer_budget: z.object({ type: z.literal("answer_budget"), requestId: z.number().int(), answer: z.union([z.literal("stop"), z.object({ add: z.number().positive() })]) }),
  /** A paused child (transient failures) tries again now. */
  wake_child: z.object({ type: z.literal("wake_child"), child: childId }),
  /** Moves running foreground child `child` (every one, without it) to the background. */
  background: z.object({ type: z.literal("background"), child: childId.optional() }),
  /** Runs the command file (or skill) `text` names (`/review src`) as every front end does. */
  run_command: z.object({ type: z.literal("run_command"), text }),
  /** Runs `command` (typed after `!`) as a bash call of the main agent. */
  shell: z.object({ type: z.literal("shell"), command: text }),
  /** Starts a main turn for the background children's reports waiting (the main agent was idle). */
  deliver_background: z.object({ type: z.literal("deliver_background") }),
  /** Switches the model of the next turns. */
  set_model: z.object({ type: z.literal("set_model"), model: text }),
  /** Switches the permission mode for every later call, children included. */
  set_mode: z.object({ type: z.literal("set_mode"), mode: z.enum(["default", "accept-edits", "plan", "yolo"]) }),
  /** Summarises older history now (`/compact`). */
  compact: z.object({ type: z.literal("compact") }),
  /** Ends this conversation for a fresh one (`/clear`): its SessionEnd hooks run with reason "clear". */
  clear: z.object({ type: z.literal("clear") }),
  /** Text as a person typed it: a command file or skill it names (`/review src`) runs as `run_command`, anything else as `prompt`. */
  input: z.object({ type: z.literal("input"), text }),
  /** What may be run as `/name`: the command files, then the skills whose names are free. */
  list_commands: z.object({ type: z.literal("list_commands") }),
  /** The main agent's conversation as it stands (what a client that loads the session replays). */
  get_history: z.object({ type: z.literal("get_history") }),
  /** The task records of a resumed session's file (its children's earlier runs), in file order. */
  list_task_records: z.object({ type: z.literal("list_task_records") }),
  /** Starts the MCP servers (once; a later op waits for the same start); done when each is ready or failed. */
  start_mcp: z.object({ type: z.literal("start_mcp") }),
  /** Writes the session file now: `create` makes it before anything was said (an editor may load it); else everything said so far. */
  save: z.object({ type: z.literal("save"), create: z.boolean().optional() }),
  /** Waits until no child works in the background (the op's signal stops the wait). */
  wait_background: z.object({ type: z.literal("wait_background") }),
  /** Runs the SessionEnd hooks once, with `reason` (default "other"); the op's signal cuts them short. */
  end: z.object({ type: z.literal("end"), reason: z.enum(["clear", "logout", "prompt_input_exit", "other"]).optional() }),
  /** Closes the session: stops its children and MCP servers and releases the session file. */
  close: z.object({ type: z.literal("close") }),
  /** Saves a line the person saw (a command's output, a notice) so a resumed session shows it; never sent to the model. */
  note: z.object({ type: z.literal("note"), text: z.string(), tone: z.enum(["info", "warn", "error", "dim"]).optional() }),
  /** The lines of a session report, by its command as typed (`/mcp`, `/skills`, `/context`, `/config`, `/tasks`). */
  report: z.object({ type: z.literal("report"), command: text }),
  /** `/model`'s listing: the model now and the ones the provider serves, as lines. */
  list_models: z.object({ type: z.literal("list_models") }),
  /** What the person saw in the main transcript that is not in the history (notes, command output), for a screen that shows a resumed session. */
  get_view: z.object({ type: z.literal("get_view") }),
} as const;

export type OpType = keyof typeof OP_SCHEMAS;
/** The op names, in OP_SCHEMAS order. */
export const OP_TYPES = Object.keys(OP_SCHEMAS) as OpType[];

export type Op = { [K in OpType]: z.infer<(typeof OP_SCHEMAS)[K]> }[OpType];
/** The op of type `T`. */
export type OpOf<T extends OpType> = Extract<Op, { type: T }>;

/** What `parseOp` says about a value that is not a valid op of `type`: the field and what is wrong with it. */
function describeIssue(type: string, raw: Record<string, unknown>, error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path.join(".") || "(command)";
  const detail = issue.code === "invalid_type" && raw[field] === undefined ? "is required" : issue.message;
  return `${type}: field "${field}" ${detail}`;
}

/** An op read from untrusted input, or why it is not one. */
export type ParsedOp = { ok: true; op: Op } | { ok: false; error: string };

/** The ops an input channel takes and what it calls one (the control channel: its commands). */
export interface OpVocabulary {
  types: readonly OpType[];
  noun: string;
}

/** Every op, called an op. */
const ALL_OPS: OpVocabulary = { types: OP_TYPES, noun: "op" };

/**
 * Validates `raw` as an op of `vocabulary` (default: every op); never throws. The error names the
 * field and what is wrong, or the closest name the vocabulary has. Fields no op has are dropped.
 */
export function parseOp(raw: unknown, vocabulary: OpVocabulary = ALL_OPS): ParsedOp {
  const { types, noun } = vocabulary;
  const known = `known ${noun}s: ${types.join(", ")}`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { ok: false, error: `${noun === "op" ? "an op" : `a ${noun}`} must be a JSON object with a "type" field, e.g. {"type":"prompt","text":"hello"}` };
  const obj = raw as Record<string, unknown>;
  if (typeof obj.type !== "string") return { ok: false, error: `field "type" is missing or not a string; ${known}` };
  const type = obj.type;
  if (!(types as readonly string[]).includes(type)) {
    const meant = closestWord(type, types);
    return { ok: false, error: `unknown ${noun} "${type}"${meant ? ` (did you mean "${meant}"?)` : ""}; ${known}` };
  }
  const parsed = OP_SCHEMAS[type as OpType].safeParse(obj);
  if (!parsed.success) return { ok: false, error: describeIssue(type, obj, parsed.error) };
  return { ok: true, op: parsed.data as Op };
}
