/** useNow: a clock that ticks while `active` (elapsed times and spinners), frozen otherwise. */
import { useEffect, useState } from "react";

/** The current time in ms, refreshed every `intervalMs` while `active`. */
export function useNow(active: boolean, intervalMs = 250, clock: () => number = Date.now): number {
  const [now, setNow] = useState(clock);
  useEffect(() => {
    setNow(clock());
    if (!active) return;
    const timer = setInterval(() => setNow(clock()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs, clock]);
  return now;
}
