/**
 * A worktree child can run the project's tests: a fresh worktree has the tracked files only, so the
 * checkout's installed dependencies (`node_modules`, at the repository root and in the directory
 * the user started in) are linked into it. The links are shared with the checkout, not copies; they
 * are not the child's work (inspection ignores them) and are removed with the worktree.
 */
import { lstatSync, readlinkSync, statSync, symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";

/** Folders of installed dependencies that a worktree borrows from the checkout. */
export const DEPENDENCY_DIRS: readonly string[] = ["node_modules"];

/** Where a worktree (`path`, made from `repoRoot`, the user in `subdir`) may hold dependency links, relative, "/"-separated. */
function candidates(subdir: string): string[] {
  const dirs = subdir ? ["", subdir] : [""];
  return dirs.flatMap((d) => DEPENDENCY_DIRS.map((name) => (d ? `${d}/${name}` : name)));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Links each dependency folder the checkout has and the worktree lacks; returns the relative
 * paths linked. Never throws: a link that cannot be made is skipped (the child can still install).
 */
export function linkDependencies(wt: { path: string; repoRoot: string; subdir: string }): string[] {
  const linked: string[] = [];
  for (const rel of candidates(wt.subdir)) {
    const source = join(wt.repoRoot, ...rel.split("/"));
    const target = join(wt.path, ...rel.split("/"));
    if (!isDirectory(source) || exists(target) || !isDirectory(join(target, ".."))) continue;
    try {
      symlinkSync(source, target, "dir");
      linked.push(rel);
    } catch {
      // read-only or unsupported: the child installs what it needs itself
    }
  }
  return linked;
}

/** The relative paths in the worktree that are links to the checkout's dependency folders (those linkDependencies made). */
export function dependencyLinks(wt: { path: string; repoRoot: string; subdir: string }): string[] {
  return candidates(wt.subdir).filter((rel) => {
    const target = join(wt.path, ...rel.split("/"));
    try {
      return lstatSync(target).isSymbolicLink() && readlinkSync(target) === join(wt.repoRoot, ...rel.split("/"));
    } catch {
      return false;
    }
  });
}

/** Removes the dependency links (before the worktree is removed, so nothing follows them). */
export function unlinkDependencies(wt: { path: string; repoRoot: string; subdir: string }): void {
  for (const rel of dependencyLinks(wt)) {
    try {
      unlinkSync(join(wt.path, ...rel.split("/")));
    } catch {
      // already gone
    }
  }
}

/** The line for the child's brief and its task result naming the links. */
export function dependencyLinksNote(wt: { repoRoot: string }, links: readonly string[]): string {
  return `installed dependencies linked from the checkout so the project's tests run here: ${links.map((l) => `${l} → ${join(wt.repoRoot, ...l.split("/"))}`).join(", ")} (shared with the checkout: installing or removing packages changes the checkout's too)`;
}
