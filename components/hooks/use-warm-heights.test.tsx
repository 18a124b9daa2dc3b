/**
 * The history measured ahead at the width the standing sidebar would leave it: a slice of items per
 * idle turn (fake timers), none during the render, every item in the end; nothing when the width
 * is the one drawn.
 */
import { Text } from "ink";
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TranscriptItem } from "../state/transcript-types.js";
import { useWarmHeights, WARM_PAUSE_MS, WARM_SLICE } from "./use-warm-heights.js";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const items: TranscriptItem[] = Array.from({ length: 1_000 }, (_, i) => ({ kind: "user", id: `u${i}`, done: true, text: `message ${i}` }));

function Warm({ width, measure }: { width: number | undefined; measure: (item: TranscriptItem, width: number) => void }) {
  useWarmHeights(items, width, 120, false, measure);
  return <Text>history</Text>;
}

describe("useWarmHeights", () => {
  it("measures the items at the other width a slice per idle turn, not in the frame", async () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    render(<Warm width={82} measure={(item, width) => seen.push(`${item.id}@${width}`)} />);
    expect(seen).toHaveLength(0); // nothing while rendering
    await vi.advanceTimersByTimeAsync(WARM_PAUSE_MS);
    expect(seen).toHaveLength(WARM_SLICE);
    await vi.advanceTimersByTimeAsync(WARM_PAUSE_MS * Math.ceil(items.length / WARM_SLICE));
    expect(seen).toHaveLength(items.length);
    expect(new Set(seen)).toEqual(new Set(items.map((i) => `${i.id}@82`)));
  });

  it("does nothing when there is no other width, or it is the one drawn", async () => {
    vi.useFakeTimers();
    let calls = 0;
    render(<Warm width={undefined} measure={() => calls++} />);
    render(<Warm width={120} measure={() => calls++} />);
    await vi.advanceTimersByTimeAsync(WARM_PAUSE_MS * 10);
    expect(calls).toBe(0);
  });
});
