/**
 * Path side of the permission decision: real paths (every component resolved, a dangling
 * symlink followed to its target), "inside the working directory", `.git/`, sensitive files and
 * path globs such as `src/**` (relative to the agent's cwd) or `/abs/**`.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** Resolves `path` (relative to `cwd`, `~` expanded) to its real path, following every symlink, even dangling ones. */
export function realPathOf(cwd: string, path: string): string {
  const p = path.trim();
  const abs = p === "~" ? homedir() : p.startsWith("~/") ? resolve(homedir(), p.slice(2)) : isAbsolute(p) ? resolve(p) : resolve(cwd, p);
  return realLoose(abs, 0);
}

function realLoose(abs: string, hops: number): string {
  try {
    return realpathSync.native(abs);
  } catch {
    // Missing (or dangling) somewhere: resolve the parent, then follow this component if it is a link.
  }
  const parent = dirname(abs);
  if (parent === abs || hops > 40) return abs;
  const base = join(realLoose(parent, hops + 1), basename(abs));
  try {
    if (lstatSync(base).isSymbolicLink()) return realLoose(resolve(dirname(base), readlinkSync(base)), hops + 1);
  } catch {
    // does not exist: fine
  }
  return base;
}

/** True when `abs` is `root` or below it. */
export function isInside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** True when a component of the path is `.git`. */
export function inGitDir(abs: string): boolean {
  return abs.split(sep).includes(".git");
}

/** Files a broad rule never allows: process environments and memory, keys. */
export function isSensitivePath(abs: string): boolean {
  return /^\/proc\/[^/]+\/(task\/[^/]+\/)?(environ|mem|auxv)$/.test(abs) || /(^|\/)\.ssh\//.test(abs) || /(^|\/)\.aws\/credentials$/.test(abs);
}

/** Matches a path glob (`*` within a segment, `**` across segments) against a real path. */
export function pathGlobMatches(glob: string, cwd: string, abs: string): boolean {
  return pathGlobRegExp(glob, cwd).test(abs);
}

/** The regular expression of a path glob relative to `cwd` (see pathGlobMatches), to test many paths. */
export function pathGlobRegExp(glob: string, cwd: string): RegExp {
  const g = absoluteGlob(glob, cwd);
  let re = "";
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    if (c === "*" && g[i + 1] === "*") {
      i++;
      if (g[i + 1] === "/") {
        re += "(?:.*/)?";
        i++;
      } else re += ".*";
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/** The deepest path every path a glob matches lies at or under: the glob (absolute) up to the directory of its first wildcard. */
export function pathGlobBase(glob: string, cwd: string): string {
  const g = absoluteGlob(glob, cwd);
  const wild = g.search(/[*?]/);
  return wild < 0 ? g : dirname(`${g.slice(0, wild)}x`);
}

/** A path glob made absolute: `~/` expanded, a relative one joined to the real `cwd`. */
function absoluteGlob(glob: string, cwd: string): string {
  return glob.startsWith("~/") ? join(homedir(), glob.slice(2)) : isAbsolute(glob) ? glob : join(realLoose(resolve(cwd), 0), glob);
}
