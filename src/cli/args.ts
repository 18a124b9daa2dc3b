/** Command-line arguments: parsed with node:util, validated, with a clear message for each mistake. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { ThinkingConfig } from "../protocol/provider.js";
import { MAX_TIMEOUT_MS, parseThinking } from "../subagents/profiles/profile-schema.js";
import { errorMessage } from "../protocol/error-message.js";
import { MAX_CHILDREN } from "../settings/settings-schema.js";
import { closestWord } from "../protocol/edit-distance.js";

/** Tool names a permission rule may name (besides mcp__<server>__<tool>). */
import { PERMISSION_MODES, type PermissionMode } from "../permissions/decide.js";
import { parseRule } from "../permissions/rules.js";

export interface CliArgs {
  print?: string;
  /** `--mode rpc`: the JSON control channel on stdin/stdout; undefined = the TUI (or print mode with -p). */
  mode?: "rpc";
  output: "text" | "json";
  provider?: string;
  model?: string;
  thinking?: ThinkingConfig;
  cwd: string;
  yolo: boolean;
  /** `--permission-mode`; undefined = settings' defaultMode, else "default". */
  permissionMode?: PermissionMode;
  allow: string[];
  trust: boolean;
  taskTimeoutMs?: number;
  maxChildren?: number;
  /** `--resume <id>`; "" when given without an id (list sessions to choose from). */
  resume?: string;
  continue: boolean;
  /** `--take-over-lock`: take over a resumed session's lock held on another host. */
  takeOverLock: boolean;
  /** `--inline`: draw the UI in the terminal's scrollback instead of full-screen. */
  inline: boolean;
  /** `--acp`: serve the Agent Client Protocol on stdio. */
  acp: boolean;
  help: boolean;
  version: boolean;
}

/** Thrown for unusable arguments; the message says what to do. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

export { USAGE } from "./usage.js";

function positiveInt(name: string, raw: string | undefined, min: number, max = MAX_TIMEOUT_MS): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

/** Every flag `ink` accepts (node:util parseArgs options); `--help` must describe each one (a test checks). */
export const CLI_OPTIONS = {
  print: { type: "string", short: "p" },
  output: { type: "string", default: "text" },
  mode: { type: "string" },
  provider: { type: "string" },
  model: { type: "string" },
  thinking: { type: "string" },
  cwd: { type: "string" },
  yolo: { type: "boolean", default: false },
  "permission-mode": { type: "string" },
  allow: { type: "string", multiple: true, default: [] as string[] },
  trust: { type: "boolean", default: false },
  "task-timeout": { type: "string" },
  "max-children": { type: "string" },
  resume: { type: "string" },
  continue: { type: "boolean", short: "c", default: false },
  "take-over-lock": { type: "boolean", default: false },
  inline: { type: "boolean", default: false },
  acp: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
  version: { type: "boolean", short: "v", default: false },
} satisfies ParseArgsConfig["options"];

/** Parses argv (without node and script). Throws UsageError for unknown flags or bad values. */
export function parseCliArgs(argv: readonly string[], cwd = process.cwd()): CliArgs {
  // `--resume` may stand without a value: give parseArgs an explicit empty one.
  const args = argv.flatMap((a, i) => (a === "--resume" && (i === argv.length - 1 || argv[i + 1]!.startsWith("-")) ? [a, ""] : [a]));
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: false,
      options: CLI_OPTIONS,
    });
  } catch (err) {
    // A misspelt flag: name the one that was meant.
    const unknown = /Unknown option '--?([^']+)'/.exec(errorMessage(err))?.[1];
    const meant = unknown ? closestWord(unknown, Object.keys(CLI_OPTIONS)) : undefined;
    throw new UsageError(`${errorMessage(err)}${meant ? ` — did you mean --${meant}?` : ""}\nRun ink --help for the options.`);
  }
  const v = parsed.values;
  if (v.mode !== undefined && v.mode !== "rpc") throw new UsageError(`--mode must be rpc (the JSON control channel; omit --mode for the interactive UI), got "${v.mode}"`);
  if (v.mode === "rpc" && v.print !== undefined) throw new UsageError("--mode rpc and -p/--print contradict each other: in rpc mode prompts come as JSON lines on stdin; pass only one of them");
  if (v.output !== "text" && v.output !== "json") throw new UsageError(`--output must be text or json, got "${v.output}"`);
  let thinking: ThinkingConfig | undefined;
  if (v.thinking !== undefined) {
    const parsed = parseThinking(/^\d+$/.test(v.thinking) ? Number(v.thinking) : v.thinking);
    if (!parsed.ok) throw new UsageError(`--thinking: ${parsed.message}`);
    thinking = parsed.value;
  }
  const mode = v["permission-mode"];
  if (mode !== undefined && !(PERMISSION_MODES as string[]).includes(mode)) throw new UsageError(`--permission-mode must be one of ${PERMISSION_MODES.join(", ")}, got "${mode}"`);
  // --yolo is the yolo mode: beside another mode it would silently win over a stricter one.
  if (mode !== undefined && mode !== "yolo" && v.yolo) throw new UsageError(`--yolo and --permission-mode ${mode} contradict each other (--yolo runs every tool without asking); pass only one of them`);
  for (const rule of v.allow ?? []) {
    try {
      parseRule(rule, "allow");
    } catch (err) {
      throw new UsageError(`--allow: ${errorMessage(err)}`);
    }
  }
  if (v.model !== undefined && v.model.trim() === "") throw new UsageError('--model needs a model id, e.g. --model claude-sonnet-4-5 (omit it for the provider\'s default)');
  if (v.resume !== undefined && v.continue) throw new UsageError("use either --resume or --continue, not both");
  if (v.acp && v.print !== undefined) throw new UsageError("--acp serves an editor over stdio; it cannot be combined with -p/--print");
  if (v.acp && (v.resume !== undefined || v.continue)) throw new UsageError("--acp: the editor opens sessions itself (session/load); drop --resume/--continue");
  if (v.print !== undefined && v.print.trim() === "") throw new UsageError('--print needs a prompt, e.g. ink -p "where is the login handled?"');
  return {
    print: v.print,
    mode: v.mode as "rpc" | undefined,
    output: v.output,
    provider: v.provider,
    model: v.model,
    thinking,
    cwd: v.cwd ?? cwd,
    yolo: v.yolo ?? false,
    permissionMode: mode as PermissionMode | undefined,
    allow: v.allow ?? [],
    trust: v.trust ?? false,
    taskTimeoutMs: positiveInt("--task-timeout", v["task-timeout"], 1000),
    maxChildren: positiveInt("--max-children", v["max-children"], 1, MAX_CHILDREN),
    resume: v.resume,
    continue: v.continue ?? false,
    takeOverLock: v["take-over-lock"] ?? false,
    inline: v.inline ?? false,
    acp: v.acp ?? false,
    help: v.help ?? false,
    version: v.version ?? false,
  };
}
