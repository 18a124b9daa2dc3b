/**
 * What the model sees of the `task` tool: its argument schema and description (SPEC §3). Both
 * are part of the tool-pool fingerprint saved in every session (session/fingerprint.ts): a change
 * to any text here makes saved children unresumable, so change it only on purpose.
 */
import { z } from "zod";
import { MIN_THINKING_BUDGET, THINKING_LEVELS } from "../../protocol/field-parsers.js";
import { taskBudgetFields } from "../runtime/budget.js";
import type { AgentProfile } from "../profiles/profile-parse.js";
import { MAX_TIMEOUT_MS } from "../profiles/profile-schema.js";
import { formatProfileList } from "../profiles/profiles.js";

/** The `task` call's arguments. */
export const taskSchema = z.object({
  prompt: z
    .string()
    .min(1)
    .describe(
      "For a new child: a self-contained brief — the child sees nothing of this conversation — usually a few sentences to a few paragraphs (not a one-line title, not pasted files: name the paths): the goal, the constraints (files or areas to keep to, what not to change), what you already know, and what to return (form and length, e.g. \"a list of file:line with one line each\"). For a resumed child: the new request only",
    ),
  agent: z.string().min(1).optional().describe("A named agent profile; omit for the general-purpose subagent"),
  timeoutMs: z.number().int().min(1000).max(MAX_TIMEOUT_MS).optional().describe("Time limit for this run in ms (≥ 1000)"),
  worktree: z.boolean().optional().describe("Run the child in its own git worktree on a new branch (the repo needs a commit)"),
  model: z.string().min(1).optional().describe("Run this child on another model of the same provider (e.g. a cheaper one for a simple search); omit for the parent's (or its profile's) model"),
  thinking: z.union([z.enum(["off", ...THINKING_LEVELS]), z.number().int().min(MIN_THINKING_BUDGET)]).optional().describe("Extended thinking for this child: off, minimal, low, medium, high, max or a token budget; omit for the profile's or the parent's"),
  description: z.string().trim().optional().describe("A short label for the child, 3–6 words (e.g. \"find the login handler\"): the person sees it on the child's pane and rows; longer ones are cut"),
  resume: z.string().min(1).optional().describe("A child session id returned earlier: continue that child with prompt; if that child is still running, prompt is sent to it as a message it reads at its next step"),
  background: z.boolean().optional().describe("Run the child in the background: the call returns at once and you go on; its report is delivered to you when it ends (or use task_wait)"),
  ...taskBudgetFields,
});

/** The arguments of one `task` call, as validated. */
export type TaskArgs = z.infer<typeof taskSchema>;

/** The task tool's description for the model, listing the available profiles. */
export function describeTask(profiles: readonly AgentProfile[]): string {
  const lines = [
    "Delegate a self-contained job to a subagent that works in its own context with its own tools; only its final report comes back to you.",
    "Use it for investigations across many files, or an isolated change (worktree: true). Several task calls in one message run in parallel.",
    "The child sees none of this conversation: put every requirement, constraint and the expected form of the report in prompt.",
    "To continue a child once it has ended (follow-up question, or after it stopped), pass resume with the session id from its earlier result and a new prompt; while a background child still runs, resume sends it the prompt as a message instead.",
    "background: true runs the child beside you: the call returns at once, you keep working, and its report arrives as a message when it ends (task_wait waits for it).",
    "Always pass description: 3–6 words saying what this child does (e.g. \"find the login handler\"); the person tells running children apart by it.",
    "Delegate only independent subtasks; keep changes to the same files in one child at a time (two children editing one file conflict).",
  ];
  // No agents defined: no roster block at all (agent's own description says to omit it).
  if (profiles.length > 0) lines.push("", formatProfileList(profiles));
  return lines.join("\n");
}
