/**
 * A gitignore-aware directory walker (no external binaries). Skips `.git` and `node_modules`,
 * honours `.gitignore` files from the enclosing git repository's root down to every visited
 * subdirectory (plus `.git/info/exclude`), visits entries in sorted order, does not follow
 * symlinked directories, and stops early when the signal aborts. With `outsideLink`, a symlinked
 * file whose real path is outside the root is not yielded (a repository's `notes -> ~/.ssh/id_rsa`
 * must not be read by a search that was allowed for the project) but reported.
 */
import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { createGlobMatcher } from "./glob.js";
import { isIgnored, loadGitignore, loadIgnoreFile, type IgnoreRuleSet } from "./gitignore.js";

/** Directory names never descended into. */
export const ALWAYS_SKIPPED = [".git", "node_modules"] as const;

export interface WalkOptions {
  /** Stops the walk (silently) once aborted; callers check `signal.aborted` afterwards. */
  signal?: AbortSignal;
  /** Only yield paths matching this glob (see `createGlobMatcher`), relative to the root. */
  glob?: string;
  /** Also yield directories (default: files only). */
  includeDirs?: boolean;
  /** Honour `.gitignore` files (default true). */
  gitignore?: boolean;
  /** When set, symlinked files resolving outside the root are skipped and passed here (link path, real target). */
  outsideLink?: (path: string, target: string) => void;
}

export interface WalkEntry {
  /** Absolute path. */
  path: string;
  /** Path relative to the walk root, `/`-separated. */
  rel: string;
  isDir: boolean;
}

/** Yields every non-ignored entry under `root` (depth-first, sorted by name within a directory). */
export async function* walk(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const useIgnore = options.gitignore ?? true;
  const match = options.glob ? createGlobMatcher(options.glob) : () => true;
  const inherited = useIgnore ? await ancestorRules(root) : [];
  const realRoot = options.outsideLink ? await realpath(root).catch(() => root) : root;
  yield* visit(root, "", inherited, { ...options, gitignore: useIgnore, realRoot }, match);
}

/** Yields the absolute paths of the non-ignored files under `root` (see `walk`). */
export async function* walkFiles(root: string, options: Omit<WalkOptions, "includeDirs"> = {}): AsyncGenerator<string> {
  for await (const entry of walk(root, { ...options, includeDirs: false })) yield entry.path;
}

async function* visit(
  dir: string,
  rel: string,
  rules: IgnoreRuleSet[],
  options: WalkOptions & { realRoot: string },
  match: (rel: string) => boolean,
): AsyncGenerator<WalkEntry> {
  if (options.signal?.aborted) return;
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return; // unreadable directory: skip it
  }
  if (options.gitignore) {
    const own = await loadGitignore(dir);
    if (own) rules = [...rules, own];
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (options.signal?.aborted) return;
    if ((ALWAYS_SKIPPED as readonly string[]).includes(entry.name)) continue;
    const path = join(dir, entry.name);
    const childRel = rel ? `${rel}/${entry.name}` : entry.name;
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      const target = await stat(path).catch(() => null);
      if (!target || target.isDirectory()) continue; // dangling link or linked directory
      if (options.outsideLink) {
        const real = await realpath(path).catch(() => path);
        if (real !== options.realRoot && !real.startsWith(options.realRoot.endsWith(sep) ? options.realRoot : options.realRoot + sep)) {
          options.outsideLink(path, real);
          continue;
        }
      }
      isFile = target.isFile();
      isDir = false;
    }
    if (!isDir && !isFile) continue;
    if (options.gitignore && isIgnored(rules, path, isDir)) continue;
    if (isDir) {
      if (options.includeDirs && match(childRel)) yield { path, rel: childRel, isDir: true };
      yield* visit(path, childRel, rules, options, match);
    } else if (match(childRel)) {
      yield { path, rel: childRel, isDir: false };
    }
  }
}

/**
 * Rule sets that apply to `root` from above it: `.git/info/exclude` and the `.gitignore` of every
 * directory from the repository root down to `root`'s parent. Empty outside a git repository.
 */
async function ancestorRules(root: string): Promise<IgnoreRuleSet[]> {
  const chain: string[] = [];
  let dir = root;
  let gitRoot: string | null = null;
  for (;;) {
    if (await exists(join(dir, ".git"))) {
      gitRoot = dir;
      break;
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
    chain.unshift(dir);
  }
  if (!gitRoot) return [];
  const sets: IgnoreRuleSet[] = [];
  const exclude = await loadIgnoreFile(join(gitRoot, ".git", "info", "exclude"), gitRoot);
  if (exclude) sets.push(exclude);
  for (const d of chain) {
    if (relative(gitRoot, d).startsWith(`..${sep}`)) continue;
    const set = await loadGitignore(d);
    if (set) sets.push(set);
  }
  return sets;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
