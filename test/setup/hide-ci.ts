/**
 * Vitest setup (each test worker, before a test file loads): CI variables are hidden, as the CLI
 * hides them while Ink loads (src/cli/ui-load-env.ts). Ink reads them once, at its first import in
 * a worker, and in CI it writes no frames at all — the tests that drive real Ink through the
 * frame owner (its tests, the drift test, the pane bytes) would otherwise not run in CI.
 */
for (const key of ["CI", "CONTINUOUS_INTEGRATION"]) delete process.env[key];
