import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_OPTIONS } from "../../src/cli/args.js";
import { USAGE } from "../../src/cli/usage.js";

const ROOT = join(import.meta.dirname, "..", "..");

/** Every .ts/.tsx file under `dir` (tests excluded). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("ink --help", () => {
  it("describes every flag the parser accepts, with its short form", () => {
    const flags = Object.entries(CLI_OPTIONS as Record<string, { short?: string }>);
    expect(flags.length).toBeGreaterThan(10);
    for (const [name, option] of flags) {
      expect(USAGE, `--${name} is accepted but not in --help`).toMatch(new RegExp(`--${name}\\b`));
      if (option.short) expect(USAGE, `-${option.short} is accepted but not in --help`).toContain(`-${option.short}, --${name}`);
    }
  });

  it("names every environment variable Ink reads (src/ and components/)", () => {
    const names = new Set<string>();
    for (const file of [...sources(join(ROOT, "src")), ...sources(join(ROOT, "components"))]) {
      for (const m of readFileSync(file, "utf8").matchAll(/\benv\.((?:INK|ANTHROPIC)_[A-Z0-9_]+)/g)) names.add(m[1]!);
    }
    expect(names.has("INK_HOME")).toBe(true);
    const environment = USAGE.slice(USAGE.indexOf("Environment:"));
    for (const name of names) expect(environment, `${name} is read but not in --help`).toContain(name);
  });

  it("names the subcommands and every settings key", async () => {
    const { settingsSchema } = await import("../../src/settings/settings.js");
    expect(USAGE).toContain("ink config");
    expect(USAGE).toContain("ink worktrees");
    const settings = USAGE.slice(USAGE.indexOf("Settings ("));
    for (const key of Object.keys(settingsSchema.shape)) expect(settings, `setting ${key} not in --help`).toContain(key);
  });
});
