/**
 * Permission rules: `tool` or `tool(pattern)`, e.g. `bash(git status*)`, `edit(src/**)`, `read`.
 * Pure parsing and matching; the decision that combines rules lives in decide.ts.
 */
export type RuleKind = "allow" | "ask" | "deny";

/** One parsed rule. `pattern` undefined = every call of the tool. */
export interface PermissionRule {
  kind: RuleKind;
  tool: string;
  pattern?: string;
  /** The rule as written, for reasons shown to the model. */
  source: string;
}

/** Parses `tool` / `tool(pattern)`; throws an Error naming the rule and the fix. */
export function parseRule(text: string, kind: RuleKind): PermissionRule {
  const m = /^\s*([A-Za-z][\w-]*\*?)\s*(?:\((.*)\))?\s*$/s.exec(text);
  if (!m) throw new Error(`permission rule "${text}" is not valid; write tool or tool(pattern), e.g. bash(git status*) or edit(src/**)`);
  const pattern = m[2]?.trim();
  const any = pattern === undefined || pattern === "" || pattern === "*" || pattern === "**";
  return { kind, tool: m[1]!, pattern: any ? undefined : pattern, source: text.trim() };
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

/** Parses every rule of one list. */
export function parseRules(list: readonly string[] | undefined, kind: RuleKind): PermissionRule[] {
  return (list ?? []).map((r) => parseRule(r, kind));
}

/** `*` matches any text (including spaces and `/`); everything else literally. Whole-string match. */
export function wildcardToRegExp(pattern: string): RegExp {
  const body = pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\/]/g, "\\$&")).join(".*");
  return new RegExp(`^${body}$`, "s");
}
