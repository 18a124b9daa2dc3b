/**
 * What a content-reading tool must not show: the files a `read` deny rule covers (`read(./.env)`,
 * `Read(./secrets/*)`), and those a deny rule naming the tool itself covers. `grep` skips
 * their content (a bare `read` deny hides every file from it); `find` and `ls` leave out the names
 * a rule with a path pattern covers. Each path is judged as written and with symlinks resolved.
 */
import { realpathSync } from "node:fs";
import { pathGlobRegExp, realPathOf } from "./paths.js";
import { ruleNamesTool, type PermissionRule } from "./rules.js";

/** The rule (as written) that hides an absolute path from a tool, or undefined. */
export type HiddenPath = (abs: string) => string | undefined;

/** Tools that read file contents or list names under a path. */
const LISTING_TOOLS = new Set(["grep", "find", "ls"]);

/** The hiding check for `tool` run in `cwd`, or undefined when no rule hides anything from it. */
export function hiddenPaths(rules: readonly PermissionRule[], tool: string, cwd: string): HiddenPath | undefined {
  if (!LISTING_TOOLS.has(tool)) return undefined;
  const covering = rules.filter((r) => r.kind === "deny" && (ruleNamesTool(r, "read") || ruleNamesTool(r, tool)) && (r.pattern !== undefined || (tool === "grep" && ruleNamesTool(r, "read"))));
  if (covering.length === 0) return undefined;
  const cwdReal = realPathOf(cwd, ".");
  const tests = covering.map((r) => ({ source: r.source, re: r.pattern === undefined ? undefined : pathGlobRegExp(r.pattern, cwdReal) }));
  return (abs) => {
    let real = abs;
    try {
      real = realpathSync.native(abs);
    } catch {
      // gone or dangling: judge it as written
    }
    return tests.find((t) => t.re === undefined || t.re.test(abs) || t.re.test(real))?.source;
  };
}
