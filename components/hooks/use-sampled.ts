/** useSampled: a figure that changes often (a streaming child's tokens), redrawn at most once a tick. */
import { useRef } from "react";

/**
 * `value` as it was at the first render after `tick` last changed (the first render: `value`
 * itself) — so what a component shows of it changes only when the tick does.
 */
export function useSampled<T>(value: T, tick: unknown): T {
  const sample = useRef<{ tick: unknown; value: T } | undefined>(undefined);
  if (sample.current === undefined || !Object.is(sample.current.tick, tick)) sample.current = { tick, value };
  return sample.current.value;
}
