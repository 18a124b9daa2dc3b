/**
 * Ink's own version (package.json's), for `--version` and for the headers of saved sessions (a
 * resumed child made by another version is checked against what changed). Node built-ins only.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/** The package version, from the package.json above this module (built: dist/, sources: src/protocol/); "unknown" when absent. */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of [[".."], ["..", ".."], ["..", "..", ".."]]) {
    const candidate = join(here, ...up, "package.json");
    if (!existsSync(candidate)) continue;
    const pkg = JSON.parse(readFileSync(candidate, "utf8")) as { name?: string; version?: string };
    if (pkg.name === "ink-agent" && pkg.version) return (cached = pkg.version);
  }
  return (cached = "unknown");
}

