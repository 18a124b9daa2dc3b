/**
 * Permission rules: `tool` or `tool(pattern)`, e.g. `bash(git status*)`, `edit(src/**)`, `read`.
 * Pure parsing and matching; the decision that combines rules lives in decide.ts.
 */
import { closestWord } from "../protocol/edit-distance.js";

export type RuleKind = "allow" | "ask" | "deny";

/** One parsed rule. `pattern` undefined = every call of the tool. */
export interface PermissionRule {
  kind: RuleKind;
  tool: string;
  pattern?: string;
  /** The rule as written, for reasons shown to the model. */
  source: string;
}

/** Built-in tools a rule may name; every other rule must name an MCP tool (`mcp__<server>__<tool>`). */
export const RULE_TOOLS: readonly string[] = ["read", "bash", "grep", "find", "ls", "edit", "write", "task"];

/** Tools whose pattern is matched: bash on the command, the others on the real path of `path`. */
const PATTERN_TOOLS = new Set(["bash", "read", "edit", "write", "grep", "find", "ls"]);

/** Claude Code's tool names in rules, and the Ink tool each one means. */
const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = { Bash: "bash", Read: "read", Edit: "edit", MultiEdit: "edit", Write: "write", Grep: "grep", Glob: "find", LS: "ls", Task: "task" };

/**
 * A rule in Claude Code's spelling as Ink's rule text(s): its tool name (`Bash`, `Read`, `Glob`…)
 * as Ink's, and a bash prefix `git status:*` as the two rules `bash(git status)` and
 * `bash(git status *)` (the command itself, or it followed by arguments). Any other text is
 * returned as it is.
 */
export function inkRuleSpellings(text: string): string[] {
  const m = /^\s*([A-Za-z][\w-]*)\s*(?:\((.*)\))?\s*$/s.exec(text);
  if (!m) return [text];
  const tool = CLAUDE_TOOL_NAMES[m[1]!] ?? m[1]!;
  const pattern = m[2]?.trim();
  if (pattern === undefined) return [tool];
  const prefix = tool === "bash" ? /^(.*?)\s*:\*$/s.exec(pattern) : null;
  if (prefix && prefix[1] !== "") return [`bash(${prefix[1]})`, `bash(${prefix[1]} *)`];
  return [`${tool}(${pattern})`];
}

/**
 * Parses `tool` / `tool(pattern)` (Claude Code's spelling too, see inkRuleSpellings: the first of
 * its rules); throws an Error naming the rule and the fix. A rule that could
 * never match is refused too: an unknown tool, or a pattern on a tool whose arguments rules do not
 * look at (`task`, MCP tools — `mcp__docs__search(foo)` would otherwise be accepted and never match).
 */
export function parseRule(written: string, kind: RuleKind): PermissionRule {
  const parsed = parseInkRule(inkRuleSpellings(written)[0]!, kind);
  return { ...parsed, source: written.trim() };
}

function parseInkRule(text: string, kind: RuleKind): PermissionRule {
  const m = /^\s*([A-Za-z][\w-]*\*?)\s*(?:\((.*)\))?\s*$/s.exec(text);
  if (!m) throw new Error(`permission rule "${text}" is not valid; write tool or tool(pattern), e.g. bash(git status*) or edit(src/**)`);
  const tool = m[1]!;
  const pattern = m[2]?.trim();
  const any = pattern === undefined || pattern === "" || pattern === "*" || pattern === "**";
  const rule = text.trim();
  const mcp = tool.startsWith("mcp__") || (tool.endsWith("*") && "mcp__".startsWith(tool.slice(0, -1)));
  if (!mcp && !RULE_TOOLS.includes(tool) && !(tool.endsWith("*") && RULE_TOOLS.some((t) => t.startsWith(tool.slice(0, -1))))) {
    const near = closestWord(tool, RULE_TOOLS);
    throw new Error(`permission rule "${rule}" names the unknown tool "${tool}"${near ? ` (did you mean "${near}"?)` : ""}; rules name ${RULE_TOOLS.join(", ")} or an MCP tool mcp__<server>__<tool>`);
  }
  if (!any && !PATTERN_TOOLS.has(tool)) {
    const server = tool.endsWith("*") ? undefined : /^mcp__(.+?)__./.exec(tool)?.[1];
    const fix = !mcp ? `write "${tool}" alone` : `write "${tool}" to cover every call${server ? `, or "mcp__${server}__*" for every tool of the server` : ""}`;
    throw new Error(`permission rule "${rule}" has a pattern, but the arguments of ${mcp ? "MCP tools" : tool} are not matched by rules, so it would never apply; ${fix}`);
  }
  return { kind, tool, pattern: any ? undefined : pattern, source: rule };
}

/**
 * True when the rule's tool part names `tool`: exactly, by a `*` prefix (`mcp__docs__*`, `mcp__*`),
 * or — as in Claude Code — a bare server name `mcp__docs` covers every tool of that server.
 */
export function ruleNamesTool(rule: PermissionRule, tool: string): boolean {
  if (rule.tool.endsWith("*")) return tool.startsWith(rule.tool.slice(0, -1));
  if (rule.tool === tool) return true;
  const server = rule.tool.startsWith("mcp__") ? rule.tool.slice(5) : "";
  return server !== "" && !server.includes("__") && tool.startsWith(`${rule.tool}__`);
}

/** Parses every rule of one list (a Claude Code bash prefix rule gives two, see inkRuleSpellings). */
export function parseRules(list: readonly string[] | undefined, kind: RuleKind): PermissionRule[] {
  return (list ?? []).flatMap((written) => inkRuleSpellings(written).map((r) => ({ ...parseInkRule(r, kind), source: written.trim() })));
}

/** `*` matches any text (including spaces and `/`); everything else literally. Whole-string match. */
export function wildcardToRegExp(pattern: string): RegExp {
  const body = pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\/]/g, "\\$&")).join(".*");
  return new RegExp(`^${body}$`, "s");
}
