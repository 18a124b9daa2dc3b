/**
 * Resizing an app rendered with ink-testing-library in full-screen mode, as a terminal resize does,
 * and reading its frames past the full-screen wipe the resize is followed by (use-resize-wipe).
 */
import type { render } from "ink-testing-library";
import { waitForFrame, waitUntil } from "./wait-for-frame.js";

type App = ReturnType<typeof render>;

/** The wipe written once a resize settled (a frame follows it). */
export const WIPE = "\u001b[2J";

/** The last frame drawn, not counting the wipe written once a resize settled. */
export function screenOf(app: App): string | undefined {
  const frames = app.frames;
  for (let i = frames.length - 1; i >= 0; i--) if (!frames[i]!.startsWith(WIPE)) return frames[i];
  return undefined;
}

/**
 * Sets the terminal's columns as a resize does and waits until the resize settled: its wipe was
 * written and the frame is at the new width (a test that types before the wipe can see it land
 * after its last frame on a loaded machine, and read an empty screen).
 */
export async function resizeColumns(app: App, columns: number): Promise<void> {
  const stdout = app.stdout as unknown as { columns: number; emit(event: string): void };
  const before = app.frames.length;
  Object.defineProperty(stdout, "columns", { value: columns, configurable: true });
  stdout.emit("resize");
  await waitUntil(() => app.frames.slice(before).some((f) => f.startsWith(WIPE)), { what: `the redraw at ${columns} columns`, tries: 600 });
  await waitForFrame(() => screenOf(app), (f) => f.split("\n").some((l) => l.startsWith("╰") && l.length === columns), { what: `the frame at ${columns} columns`, tries: 600 });
}
