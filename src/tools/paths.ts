/** Path handling shared by the tools: resolve against the agent's cwd, display relative to it. */
import { homedir } from "node:os";
import { isAbsolute, relative, resolve, sep } from "node:path";

/**
 * Resolves a tool's path argument: absolute paths are kept, `~` / `~/x` expand to the home
 * directory, anything else is relative to `cwd`. An empty or missing path means `cwd`.
 */
export function resolvePath(cwd: string, path: string | undefined): string {
  if (path === undefined || path.trim() === "") return resolve(cwd);
  const p = path.trim();
  if (p === "~") return homedir();
  if (p.startsWith("~/")) return resolve(homedir(), p.slice(2));
  return isAbsolute(p) ? resolve(p) : resolve(cwd, p);
}

/**
 * How a path is shown to the model: relative to `cwd` (with `/` separators) when it lies inside
 * it, `.` for `cwd` itself, absolute otherwise.
 */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return abs;
  return toPosix(rel);
}

/** Converts platform separators to `/`. */
export function toPosix(p: string): string {
  return sep === "/" ? p : p.split(sep).join("/");
}
