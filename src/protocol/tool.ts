/**
 * The tool contract. A tool is a plain value (so pools can be filtered by name): a zod schema
 * for its arguments, a description for the model, whether calls may overlap, and `execute`.
 */
import type { z } from "zod";
import type { AgentEvent } from "./events.js";
import type { ToolImage } from "./messages.js";

/** What a running tool gets besides its arguments. */
export interface ToolContext {
  /** Aborts the call (user interrupt, timeout, parent abort). Tools must stop promptly. */
  signal: AbortSignal;
  /** Absolute working directory; relative paths resolve against it. */
  cwd: string;
  /** Id of the tool call being executed. */
  toolCallId: string;
  /** Streams partial output to the UI (e.g. bash output as it arrives). */
  onUpdate?: (text: string) => void;
  /** Emits an event into the calling agent's stream (used by `task` to relay child events). */
  emit?: (event: AgentEvent) => void;
  /**
   * The deny rule (as written) that hides an absolute path from this call, or undefined: grep skips
   * such files' content, find and ls leave out their names (and each says how many it left out).
   */
  hidden?: (absPath: string) => string | undefined;
  /** Set for a child's calls: it runs in the background / in its own worktree (bash's OS boundary follows it). */
  runsAs?: { background?: boolean; worktree?: boolean };
}

/** What a tool returns: `output` goes to the model; `details` only to the UI/session. */
export interface ToolOutput {
  output: string;
  isError: boolean;
  details?: unknown;
  /** Images for the model beside `output` (an MCP tool's image content); `output` names each one. */
  images?: ToolImage[];
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  schema: S;
  /** True when calls may run concurrently with other overlap-safe calls (read-only tools, task). */
  concurrent: boolean;
  /** True when the tool never changes files or runs commands (approval lets these run freely). */
  readOnly: boolean;
  /**
   * A tool that says of itself that it only reads (an MCP tool's `readOnlyHint`): plan mode runs
   * it unasked (as Claude Code does); other modes still ask, and deny/ask rules always apply.
   */
  readOnlyHint?: boolean;
  /**
   * True when the tool itself returns a meaningful result promptly after an abort (e.g. `task`,
   * whose child loop winds down its own tools): the loop then waits for that result instead of
   * replacing it with "interrupted" after a grace period.
   */
  returnsOnAbort?: boolean;
  /** A JSON schema sent to the model as-is instead of one converted from `schema` (MCP tools). */
  inputSchema?: Record<string, unknown>;
  /** Runs the call. Contract: never throws for expected failures — returns `{isError: true}` instead. */
  execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutput>;
}

/** A tool of any schema. */
export type AnyTool = Tool<any>;
