/** Saving an "always allow" rule to the user's settings (`a` in the TUI's approval line). */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ToolCall } from "../protocol/messages.js";

/** The rule the person would save for this call: the exact bash command, the exact path, or the bare tool. */
export function suggestRule(call: ToolCall): string {
  const a = call.arguments as Record<string, unknown>;
  if (call.name === "bash" && typeof a.command === "string" && !/[()\n]/.test(a.command)) return `bash(${a.command})`;
  if (typeof a.path === "string" && !/[()]/.test(a.path)) return `${call.name}(${a.path})`;
  return call.name;
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
