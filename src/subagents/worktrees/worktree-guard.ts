/**
 * Keeps a worktree child's changes in its worktree: its first message says where it works, and
 * its file-changing tools refuse paths inside the user's checkout (outside the worktree). The
 * system prompt stays the parent's (resume checks depend on it), so the context goes in the prompt.
 */
import { dependencyLinksNote } from "./worktree-deps.js";
import { isAbsolute, relative, resolve } from "node:path";
import type { AnyTool } from "../../protocol/tool.js";
import { worktreeCwd, type Worktree } from "./worktree.js";

/** Tools whose `path` argument writes a file. */
const WRITING_TOOLS = new Set(["edit", "write"]);

/** The child's first message: where it works, then the task. */
export function worktreePrompt(wt: Worktree, prompt: string): string {
  return [
    `[Ink] You work in an isolated git worktree at ${worktreeCwd(wt)} (branch ${wt.branch}), a copy of the project at ${wt.repoRoot} made from its HEAD.`,
    `Your working directory is that worktree: use relative paths. Do not change files under ${wt.repoRoot}; your changes stay on ${wt.branch} for the user to review and merge.`,
    ...(wt.links?.length ? [`The ${dependencyLinksNote(wt, wt.links)}.`] : []),
    "",
    prompt,
  ].join("\n");
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** `tools` with edit/write refusing paths in the user's checkout that are not in the worktree. */
export function confineToWorktree(tools: readonly AnyTool[], wt: Worktree): AnyTool[] {
  return tools.map((tool) => {
    if (!WRITING_TOOLS.has(tool.name)) return tool;
    const guarded: AnyTool = {
      ...tool,
      async execute(args, ctx) {
        const target = resolve(ctx.cwd, String((args as { path?: unknown }).path ?? ""));
        if (inside(wt.repoRoot, target) && !inside(wt.path, target)) {
          const rel = relative(wt.repoRoot, target);
          return {
            output: `${tool.name} refused: ${target} is in the user's checkout, but this subagent works in the worktree ${wt.path}. Use the relative path ${rel} instead.`,
            isError: true,
          };
        }
        return tool.execute(args, ctx);
      },
    };
    return guarded;
  });
}
