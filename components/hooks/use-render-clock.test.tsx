/** useRenderClock: frames caused by something else carry the clock; its own timer adds none while they come. */
import { Text } from "ink";
import { render } from "ink-testing-library";
import { useEffect, useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useRenderClock } from "./use-render-clock.js";

afterEach(() => vi.useRealTimers());

/** Fake timers for the clock and the component's timers; React's scheduler (setImmediate) stays real. */
const fakeClock = () => vi.useFakeTimers({ now: 1_000_000, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });

/** Advances the fake clock by `ms` in 10 ms steps, letting React render and run its effects after each. */
async function advance(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 10) {
    await vi.advanceTimersByTimeAsync(10);
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  }
}

/** Renders the clock; `everyMs` > 0: a state change of its own that often (a stream's flushes). */
function Probe({ active, everyMs, renders }: { active: boolean; everyMs: number; renders: number[] }) {
  const [n, setN] = useState(0);
  useEffect(() => {
    if (everyMs <= 0) return;
    const t = setInterval(() => setN((x) => x + 1), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  const now = useRenderClock(active, 250);
  renders.push(now);
  return <Text>{`${n} ${now}`}</Text>;
}

describe("useRenderClock", () => {
  it("adds no renders while other updates come faster than its interval, and each of those reads the time", async () => {
    fakeClock();
    const renders: number[] = [];
    const app = render(<Probe active everyMs={100} renders={renders} />);
    const before = renders.length;
    await advance(2_000);
    // 20 updates of its own in 2 s: 20 renders, not 20 + 8 clock ticks.
    expect(renders.length - before).toBe(20);
    expect(renders.at(-1)).toBe(1_002_000);
    expect(app.lastFrame()).toBe("20 1002000");
    app.unmount();
  });

  it("ticks every interval when nothing else renders, and stops when inactive", async () => {
    fakeClock();
    const renders: number[] = [];
    const app = render(<Probe active everyMs={0} renders={renders} />);
    const before = renders.length;
    await advance(1_000);
    expect(renders.length - before).toBe(4);
    expect(app.lastFrame()).toBe("0 1001000");
    app.rerender(<Probe active={false} everyMs={0} renders={renders} />);
    // The render that turns it off reads the time once more; then it is frozen.
    expect(renders.at(-1)).toBe(1_001_000);
    const off = renders.length;
    await advance(1_000);
    expect(renders.length).toBe(off);
    app.rerender(<Probe active={false} everyMs={0} renders={renders} />);
    expect(renders.at(-1)).toBe(1_001_000);
    app.unmount();
  });
});
