import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx", "components/**/*.test.ts", "components/**/*.test.tsx"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    setupFiles: ["test/setup/hide-ci.ts"],
    // A developer's real ~/.claude/agents and ~/.agents/skills must not leak into tests (tests that want one pass claudeHome).
    env: { INK_CLAUDE_HOME: "/nonexistent-ink-claude-home", INK_AGENTS_HOME: "/nonexistent-ink-agents-home" },
  },
});
