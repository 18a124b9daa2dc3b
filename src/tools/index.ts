/** The built-in tools and the gitignore-aware walker they share. */
import { bashTool, createBashTool, type BashToolOptions } from "./bash.js";
import { editTool } from "./edit.js";
import { findTool } from "./find.js";
import { grepTool } from "./grep.js";
import { lsTool } from "./ls.js";
import { readTool } from "./read.js";
import type { AnyTool } from "../protocol/tool.js";
import { writeTool } from "./write.js";

export { bashTool, createBashTool, type BashDetails, type BashToolOptions } from "./bash.js";
export { editTool } from "./edit.js";
export { createFindTool, findTool, type FindToolOptions } from "./find.js";
export { createGrepTool, grepTool, type GrepToolOptions } from "./grep.js";
export { createLsTool, lsTool, type LsToolOptions } from "./ls.js";
export { readTool } from "./read.js";
export { writeTool } from "./write.js";
export { walk, walkFiles, ALWAYS_SKIPPED, type WalkEntry, type WalkOptions } from "./walk.js";
export { createGlobMatcher, globToRegExp } from "./glob.js";
export { isIgnored, parseGitignore } from "./gitignore.js";

/** Names of the built-in tools that never change files or run commands. */
export const READ_ONLY_TOOL_NAMES: readonly string[] = ["read", "grep", "find", "ls"];

/** Fresh list of the built-in tools, in the order read, bash, grep, find, ls, edit, write. */
export function builtinTools(options: Pick<BashToolOptions, "envPassthrough" | "extraEnv" | "boundary" | "sandboxSettings"> = {}): AnyTool[] {
  const bash = options.envPassthrough?.length || options.boundary || options.extraEnv ? createBashTool(options) : bashTool;
  return [readTool, bash, grepTool, findTool, lsTool, editTool, writeTool];
}
