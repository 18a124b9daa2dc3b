/**
 * Test helpers for ink-testing-library: poll the last frame until a condition holds (bounded
 * tries, never sleep-and-hope), and type into the app one chunk at a time.
 */

/** Removes ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, "");
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `lastFrame()` (ANSI removed) until `test` passes; returns that frame. Throws after
 * `tries` polls `intervalMs` apart, showing what the frame looked like.
 */
export async function waitForFrame(
  lastFrame: () => string | undefined,
  test: (frame: string) => boolean,
  { tries = 200, intervalMs = 10, what = "the expected frame" }: { tries?: number; intervalMs?: number; what?: string } = {},
): Promise<string> {
  let frame = "";
  for (let i = 0; i < tries; i++) {
    frame = stripAnsi(lastFrame() ?? "");
    if (test(frame)) return frame;
    await pause(intervalMs);
  }
  throw new Error(`timed out waiting for ${what}; last frame:\n${frame}`);
}

/** Polls `check` until it returns true (bounded), for non-frame conditions. */
export async function waitUntil(check: () => boolean, { tries = 200, intervalMs = 10, what = "the condition" } = {}): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (check()) return;
    await pause(intervalMs);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Types `text` (waiting until the prompt shows it), then presses Enter. */
export async function typeAndSubmit(app: { stdin: { write(data: string): void }; lastFrame: () => string | undefined }, text: string): Promise<void> {
  app.stdin.write(text);
  await waitForFrame(app.lastFrame, (f) => f.includes(text.slice(-20)), { what: `the prompt to show "${text}"` });
  app.stdin.write("\r");
}
