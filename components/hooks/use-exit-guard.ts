/**
 * useExitGuard: "press Ctrl-C twice to exit". The first press arms the guard for `windowMs`;
 * a second press inside the window says exit.
 */
import { useCallback, useEffect, useRef, useState } from "react";

/** The guard's state and its key handler. */
export interface ExitGuard {
  /** True between the first press and the end of the window. */
  armed: boolean;
  /** Registers a press; returns true when this press should exit. */
  press(): boolean;
}

/** Creates the guard; `windowMs` defaults to 2 s. */
export function useExitGuard(windowMs = 2000): ExitGuard {
  const [armed, setArmed] = useState(false);
  const armedRef = useRef(false);
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const press = useCallback(() => {
    clearTimeout(timer.current);
    if (armedRef.current) {
      armedRef.current = false;
      setArmed(false);
      return true;
    }
    armedRef.current = true;
    setArmed(true);
    timer.current = setTimeout(() => {
      armedRef.current = false;
      setArmed(false);
    }, windowMs);
    return false;
  }, [windowMs]);
  return { armed, press };
}
