/** Saving an "always allow" rule to the user's settings (`a` in the TUI's approval line). */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ToolCall } from "../protocol/messages.js";
import { realPathOf } from "./paths.js";
import { RULE_TOOLS } from "./rules.js";
import { splitShell } from "./shell-split.js";

/** The rule the person would save for this call: the exact bash command, the exact path, or the bare tool. */
export function suggestRule(call: ToolCall): string {
  const a = call.arguments as Record<string, unknown>;
  if (call.name === "bash" && typeof a.command === "string" && !/[()\n]/.test(a.command)) return `bash(${a.command})`;
  if (typeof a.path === "string" && !/[()]/.test(a.path)) return `${call.name}(${a.path})`;
  return call.name;
}

/**
 * The rule to save in the user's settings so that this exact call is allowed from now on, in any
 * project — or undefined when no single rule would: a bash line of one plain command gives
 * `bash(<command>)`; a path tool gives `<tool>(<real absolute path>)`; an MCP tool its name.
 * Compound or unparseable bash lines, lines with prefix variables or wrappers, paths holding glob characters or parentheses, and `task`
 * give none (the person can still answer y or a).
 */
export function savableRule(call: ToolCall, cwd: string): string | undefined {
  const a = call.arguments as Record<string, unknown>;
  if (call.name === "bash") {
    if (typeof a.command !== "string") return undefined;
    const split = splitShell(a.command);
    const only = split.commands[0];
    if (!split.parsed || split.unknown || split.open.length > 0 || split.commands.length !== 1 || split.raw.length !== 1 || split.raw[0] !== only || only === undefined || /[()*?\n]/.test(only)) return undefined;
    return `bash(${only})`;
  }
  if (call.name.startsWith("mcp__")) return call.name;
  if (!RULE_TOOLS.includes(call.name) || call.name === "task") return undefined;
  const path = typeof a.path === "string" && a.path.trim() !== "" ? a.path : ".";
  const abs = realPathOf(cwd, path);
  return /[()*?]/.test(abs) ? undefined : `${call.name}(${abs})`;
}

/** Appends `rule` to `permissions.allow` of `$INK_HOME/settings.json` (atomic; other keys kept). Throws naming the file. */
export function saveUserRule(inkHome: string, rule: string): void {
  const file = join(inkHome, "settings.json");
  let data: Record<string, any> = {};
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new Error(`cannot save the rule to ${file}: ${(err as Error).message}; fix the file first`);
  }
  const permissions = (data.permissions ??= {});
  const allow: string[] = (permissions.allow ??= []);
  if (!allow.includes(rule)) allow.push(rule);
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`);
  renameSync(temp, file);
}
