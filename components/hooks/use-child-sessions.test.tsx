/**
 * The sidebar's saved child sessions are read when it opens, and once more after a burst of this
 * session's children ending — in a timer, not in the frames those ends draw (fake timers).
 */
import { Text } from "ink";
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { StreamState, TranscriptItem } from "../state/transcript-types.js";
import { REREAD_AFTER_END_MS, useChildSessions, type ChildSessionsSource } from "./use-child-sessions.js";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** Eight task calls whose first `ended` children have finished. */
function stateWith(ended: number): StreamState {
  const live = Array.from({ length: 8 }, (_, i) => ({
    kind: "tool",
    id: `t${i}`,
    name: "task",
    done: i < ended,
    child: { childId: `20261204-120000-abcd${i}0`, status: i < ended ? "ok" : "running", prompt: `look at part ${i}`, startedAt: 1_000, durationMs: i < ended ? 500 : undefined },
  }));
  return { finished: [], live: live as unknown as TranscriptItem[] } as unknown as StreamState;
}

function Probe({ session, state }: { session: ChildSessionsSource; state: StreamState }) {
  const rows = useChildSessions(session, state, true);
  return <Text>{rows.map((r) => r.status).join(" ")}</Text>;
}

describe("useChildSessions", () => {
  it("lists the store once on opening and once after eight ends, outside the frames", async () => {
    vi.useFakeTimers();
    let listed = 0;
    const session = { store: { list: () => (listed++, []) }, cwd: "/project", sessionId: "20261204-115900-main00" } as unknown as ChildSessionsSource;
    const app = render(<Probe session={session} state={stateWith(0)} />);
    expect(listed).toBe(1);
    for (let ended = 1; ended <= 8; ended++) {
      app.rerender(<Probe session={session} state={stateWith(ended)} />);
      await vi.advanceTimersByTimeAsync(20); // ends a few ms apart
    }
    expect(listed).toBe(1); // no listing in the frames the ends drew…
    expect(app.lastFrame()).toBe(Array.from({ length: 8 }, () => "ok").join(" ")); // …whose rows show the ends at once
    await vi.advanceTimersByTimeAsync(REREAD_AFTER_END_MS);
    expect(listed).toBe(2);
  });
});
