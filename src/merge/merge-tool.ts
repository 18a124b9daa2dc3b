/**
 * The main agent's `merge_branches` tool (issue #40): the same merge queue as `/merge`, so "merge
 * what the workers did" works. Without `branches` it lists the kept branches; with them it merges
 * in order. It never merges over the person's uncommitted changes (only they can allow that).
 */
import { z } from "zod";
import type { Tool } from "../protocol/tool.js";
import { describeMerge, queueListing, type BranchState, type MergeOutcome } from "./merge-queue.js";

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
      "List the branches your worktree children kept (diffstat, files changed by more than one, whether each applies cleanly to HEAD), or merge the chosen ones in order into the current branch. Stops at the first conflict (undone, files named; resolve it by resuming that branch's child with task resume). Merged worktrees and branches are removed.",
    schema: mergeBranchesSchema,
    concurrent: false,
    readOnly: false,
    async execute(args) {
      try {
        if (args.branches === undefined) return { output: queueListing(await deps.list()).join("\n").replace(/\n\/merge .*$/, ""), isError: false };
        const o = await deps.merge(args.branches, { squash: args.squash });
        return { output: describeMerge(o) + (o.conflict?.detail ? `\n${o.conflict.detail}` : ""), isError: !o.ok };
      } catch (err) {
        return { output: `merge_branches failed: ${(err as Error).message}`, isError: true };
      }
    },
  };
}
