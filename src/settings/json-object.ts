/** Reading a settings-like JSON file (Claude Code's `.claude/settings.json`, hook files) leniently, for callers that take only some keys. */
import { readFileSync } from "node:fs";
import { parseJsonAt } from "./json-error.js";

/** Reads one JSON settings file's object; undefined when it does not exist. Problems name the file. */
export function readJsonObject(path: string, problems: string[]): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") problems.push(`${path}: cannot be read (${code}); its hooks and rules were not loaded`);
    return undefined;
  }
  if (text.trim() === "") return {};
  try {
    const raw: unknown = parseJsonAt(text);
    if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) return raw as Record<string, unknown>;
    problems.push(`${path}: must hold a JSON object; its hooks and rules were not loaded`);
  } catch (err) {
    problems.push(`${path}: not valid JSON (${(err as Error).message}); its hooks and rules were not loaded — fix the file`);
  }
  return undefined;
}
