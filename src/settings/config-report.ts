/** `ink config` / `/config`: the effective settings, one line per key, each with the file it came from. */
import type { LoadedSettings } from "./settings.js";

/** Lines for the person; flags given on the command line still win over these values. */
export function formatSettingsReport(loaded: LoadedSettings, files: { user: string; project?: string }): string[] {
  const lines = ["Settings files:", `  user:    ${files.user}${loaded.scopes.some((s) => s.scope === "user") ? "" : " (none)"}`];
  if (files.project) lines.push(`  project: ${files.project}${loaded.scopes.some((s) => s.scope === "project") ? "" : " (none, or the project is not trusted)"}`);
  const entries = Object.entries(loaded.effective).filter(([, v]) => v !== undefined);
  lines.push("Effective settings (command-line flags win over these):");
  if (entries.length === 0) lines.push("  (none set; built-in defaults apply)");
  for (const [key, value] of entries) lines.push(`  ${key} = ${JSON.stringify(value)}    (from ${loaded.sources[key as keyof typeof loaded.sources] ?? "?"})`);
  if (loaded.warnings.length) lines.push("Warnings:", ...loaded.warnings.map((w) => `  ${w}`));
  return lines;
}
