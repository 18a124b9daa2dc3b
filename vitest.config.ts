import { readFile } from "node:fs/promises";
import { defineConfig } from "vitest/config";
import { viteSwaps } from "./scripts/ink-swaps.mjs";

/**
 * Tests run the code the bundle runs: the files of string-width and yoga that scripts/build.mjs
 * swaps (scripts/ink-swaps.mjs) are swapped here too, by the same table. Vite sees a package's
 * imports only when the package is inlined, so every package whose files are swapped, or that
 * imports one of them, is (wrap-ansi for its own string-width@7).
 */
const SWAPPED = /[\\/]node_modules[\\/](ink|ink-testing-library|yoga-layout|string-width|wrap-ansi|cli-truncate|widest-line)[\\/]/;

/** The inlined packages' own files read without their source maps (which point at sources they do not ship: a warning a file). */
const withoutMaps = {
  name: "inlined-without-maps",
  async load(id: string) {
    const path = id.split("?")[0]!;
    if (!SWAPPED.test(path) || !path.endsWith(".js")) return null;
    return { code: (await readFile(path, "utf8")).replace(/^\/\/# sourceMappingURL=.*$/m, ""), map: null };
  },
};

export default defineConfig({
  plugins: [viteSwaps(), withoutMaps],
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    setupFiles: ["test/setup/hide-ci.ts"],
    server: { deps: { inline: [SWAPPED] } },
    // A developer's real ~/.claude/agents and ~/.agents/skills must not leak into tests (tests that want one pass claudeHome).
    env: { INK_CLAUDE_HOME: "/nonexistent-ink-claude-home", INK_AGENTS_HOME: "/nonexistent-ink-agents-home" },
    // Unit and component tests first, two files at a time (most of a file's time is loading Ink and
    // React in its own process, which two cores do side by side; vitest's default on 2 cores is one);
    // then the end-to-end tests one file at a time, as before (each drives real processes in tmux, and
    // two at once race for the machine).
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts", "test/**/*.test.tsx", "components/**/*.test.ts", "components/**/*.test.tsx"], exclude: ["test/e2e/**"], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "e2e", include: ["test/e2e/**/*.test.ts", "test/e2e/**/*.test.tsx"], maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
