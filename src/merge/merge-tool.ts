/**
 * The main agent's `merge_branches` tool (issue #40): the same merge queue as `/merge`, so "merge
 * what the workers did" works. Without `branches` it lists the kept branches; with them it merges
 * in order. It never merges over the person's uncommitted changes (only they can allow that).
 */
import { z } from "zod";
import type { Tool } from "../protocol/tool.js";
import { conflictPrompt, describeMerge, queueListing, type BranchState, type MergeOutcome } from "./merge-queue.js";

export const mergeBranchesSchema = z.object({
  branches: z
    .union([z.literal("all"), z.array(z.string().min(1)).min(1)])
    .optional()
    .describe('Kept branches to merge, in order (names as listed), or "all"; omit to list them with diffstat, overlaps and whether each applies cleanly'),
  squash: z.boolean().optional().describe("Squash each branch into one commit instead of a merge commit"),
});

export interface MergeToolDeps {
  list: () => Promise<BranchState[]>;
  merge: (pick: "all" | string[], opts: { squash?: boolean }) => Promise<MergeOutcome>;
}

export function createMergeBranchesTool(deps: MergeToolDeps): Tool<typeof mergeBranchesSchema> {
  return {
    name: "merge_branches",
    description:
      "List the branches your worktree children kept (diffstat, files changed by more than one, whether each applies cleanly to HEAD), or merge the chosen ones in order into the current branch. Stops at the first conflict (undone; files, hunks and the child to hand it to named: resume that branch's child with task resume and the prompt given, then merge again). Merged worktrees and branches are removed.",
    schema: mergeBranchesSchema,
    concurrent: false,
    readOnly: false,
    async execute(args) {
      try {
        if (args.branches === undefined) return { output: queueListing(await deps.list()).join("\n").replace(/\n\/merge .*$/, ""), isError: false };
        const o = await deps.merge(args.branches, { squash: args.squash });
        const c = o.conflict;
        const hand = c?.childId ? `\nTo hand it to the branch's own child, call task with resume "${c.childId}" and this prompt, then merge_branches again with ${[c.branch, ...(o.remaining ?? []).map((b) => b.branch)].map((b) => `"${b}"`).join(", ")}:\n${conflictPrompt(c)}` : "";
        return { output: describeMerge(o) + (c?.detail ? `\n${c.detail}` : "") + (c?.diff ? `\n${c.diff}` : "") + hand, isError: !o.ok };
      } catch (err) {
        return { output: `merge_branches failed: ${(err as Error).message}`, isError: true };
      }
    },
  };
}
