/**
 * Edit conflicts between children (issue #25 item 4). Children running in the shared working
 * tree claim each file they write or edit (its resolved absolute path); a second running child's
 * write/edit of a claimed file is refused with an error naming the holder, and both children's
 * panes get an `edit_overlap` line. A child's claims are released when it ends. The main agent is
 * never refused (it coordinates the children, and a paused child could otherwise block it for
 * long): its result carries a warning instead. Worktree children are separate trees and claim
 * nothing; kept worktree branches that changed the same files are reported in the later result.
 */
import { realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { AgentEvent } from "../../protocol/events.js";
import type { AnyTool, ToolOutput } from "../../protocol/tool.js";
import { displayPath, resolvePath } from "../../tools/paths.js";

/** Tools whose `path` argument names the file they change. */
const CHANGING_TOOLS = new Set(["edit", "write"]);
/** Files listed in one kept-branch overlap line before "… and N more". */
const MAX_LISTED = 10;
/** How the main agent is named in an overlap. */
const MAIN_AGENT = "the main agent";

/** A running child that may hold claims: how it is named and how its pane is told of an overlap. */
export interface ClaimHolder {
  childId: string;
  /** `general · fix login [ab12cd]`: the child's title with its id (see claimTitle). */
  title: string;
  /** Sends an event into this child's own stream (its pane). Contract: must not throw. */
  notify?: (event: AgentEvent) => void;
}

/** One kept worktree branch's changed files (paths relative to the repository root). */
export interface KeptBranch {
  childId: string;
  title: string;
  branch: string;
  files: readonly string[];
}

/** How an overlap is named: `general · fix login [ab12cd]`. */
export function claimTitle(title: string, childId: string): string {
  return `${title} [${childId}]`;
}

/** The pane line for an `edit_overlap` event (shared by the TUI and print mode). */
export function overlapLine(event: Extract<AgentEvent, { type: "edit_overlap" }>): string {
  return event.refused
    ? `⚠ overlap: ${event.path} is being changed by ${event.other}; not changed here`
    : `⚠ overlap: ${event.other} also ${event.other === MAIN_AGENT ? "changed" : "tried to change"} ${event.path}, which this child changed`;
}

/** The resolved absolute path of `abs` (symlinks followed as far as the path exists). */
function canonical(abs: string): string {
  try {
    return realpathSync.native(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(canonical(parent), basename(abs));
  }
}

/** The files the running children of one session changed, and the session's kept worktree branches. */
export class EditClaims {
  private readonly holders = new Map<string, ClaimHolder>();
  /** Canonical path → id of the running child that changed it. */
  private readonly claims = new Map<string, string>();
  private readonly kept: KeptBranch[] = [];

  /** Registers a running child of the shared tree; returns its guard (wrap its tools, release at its end). */
  enter(holder: ClaimHolder): { guard: (tools: readonly AnyTool[]) => AnyTool[]; release: () => void } {
    this.holders.set(holder.childId, holder);
    return { guard: (tools) => tools.map((t) => (CHANGING_TOOLS.has(t.name) ? this.guardChild(t, holder) : t)), release: () => this.release(holder.childId) };
  }

  /** Drops every claim of `childId` (it ended). */
  release(childId: string): void {
    this.holders.delete(childId);
    for (const [path, owner] of this.claims) if (owner === childId) this.claims.delete(path);
  }

  /** The running child holding `abs` (any path form), if any. */
  holderOf(abs: string): ClaimHolder | undefined {
    const id = this.claims.get(canonical(abs));
    return id === undefined ? undefined : this.holders.get(id);
  }

  /** Canonical paths `childId` holds now. */
  filesOf(childId: string): string[] {
    return [...this.claims].filter(([, owner]) => owner === childId).map(([path]) => path);
  }

  /** The main agent's tools: write/edit of a file a running child changed runs, with a warning in its result. */
  warnMain(tools: readonly AnyTool[]): AnyTool[] {
    return tools.map((tool) => {
      if (!CHANGING_TOOLS.has(tool.name)) return tool;
      const warned: AnyTool = {
        ...tool,
        execute: async (args, ctx) => {
          const out = await tool.execute(args, ctx);
          const abs = resolvePath(ctx.cwd, (args as { path?: string }).path);
          const holder = this.holderOf(abs);
          if (!holder || out.isError) return out;
          const shown = displayPath(ctx.cwd, abs);
          holder.notify?.({ type: "edit_overlap", path: shown, other: MAIN_AGENT, refused: false });
          const warning = `[${tool.name}] warning: ${shown} was also changed by the running child ${holder.title}; its next edits may clash with yours — wait for it (task_wait) or tell it (task with resume: "${holder.childId}") before changing this file further.`;
          return { ...out, output: `${String(out.output)}\n\n${warning}` };
        },
      };
      return warned;
    });
  }

  /**
   * Records a kept worktree branch and returns the earlier kept branches of this session that
   * changed any of the same files (with those files).
   */
  recordKept(branch: KeptBranch): KeptBranch[] {
    const mine = new Set(branch.files);
    const overlaps = this.kept
      .filter((k) => k.childId !== branch.childId)
      .map((k) => ({ ...k, files: k.files.filter((f) => mine.has(f)) }))
      .filter((k) => k.files.length > 0);
    const i = this.kept.findIndex((k) => k.childId === branch.childId);
    if (i >= 0) this.kept.splice(i, 1);
    this.kept.push(branch);
    return overlaps;
  }

  private guardChild(tool: AnyTool, me: ClaimHolder): AnyTool {
    return {
      ...tool,
      execute: async (args, ctx): Promise<ToolOutput> => {
        const abs = resolvePath(ctx.cwd, (args as { path?: string }).path);
        const path = canonical(abs);
        const owner = this.claims.get(path);
        const other = owner !== undefined && owner !== me.childId ? this.holders.get(owner) : undefined;
        if (other) {
          const shown = displayPath(ctx.cwd, abs);
          me.notify?.({ type: "edit_overlap", path: shown, other: other.title, refused: true });
          other.notify?.({ type: "edit_overlap", path: shown, other: me.title, refused: false });
          return { output: conflictMessage(tool.name, shown, other.title), isError: true };
        }
        // Claimed before the tool runs (no await in between), so two children cannot both start on one file.
        const fresh = owner === undefined;
        this.claims.set(path, me.childId);
        try {
          const out = await tool.execute(args, ctx);
          if (out.isError && fresh && this.claims.get(path) === me.childId) this.claims.delete(path);
          return out;
        } catch (err) {
          if (fresh && this.claims.get(path) === me.childId) this.claims.delete(path);
          throw err;
        }
      },
    };
  }
}

/** The error a child gets for changing a file another running child changed. */
export function conflictMessage(toolName: string, shown: string, otherTitle: string): string {
  return (
    `[${toolName}] ${shown} was changed by the running child ${otherTitle}; two children editing one file overwrite each other, so it was not changed. ` +
    "Leave this file to that child and say so in your report: the main agent can wait for it (task_wait) or run this work in a worktree (task worktree: true)."
  );
}

/** The lines a kept worktree's `task` result gains for earlier kept branches that changed the same files ("" when none). */
export function formatKeptOverlaps(overlaps: readonly KeptBranch[]): string {
  return overlaps
    .map((k) => {
      const listed = k.files.slice(0, MAX_LISTED).join(", ");
      const more = k.files.length > MAX_LISTED ? ` … and ${k.files.length - MAX_LISTED} more` : "";
      return `[worktree] also changed by child ${k.title} (branch ${k.branch}): ${listed}${more} — merging both branches may conflict there`;
    })
    .join("\n");
}
