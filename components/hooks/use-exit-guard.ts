/**
 * useExitGuard: "press Ctrl-C twice to exit". The first press arms the guard for `windowMs`;
 * a second press inside the window says exit. Whether it is armed is the screen store's
 * (`exitArmed`, shown in the status bar); this hook keeps the window's timer.
 */
import { useCallback, useEffect, useRef } from "react";
import type { ScreenStore } from "../state/screen-state.js";

/** The guard's key handler. */
export interface ExitGuard {
  /** Registers a press; returns true when this press should exit. */
  press(): boolean;
}

/** Creates the guard over `store`; `windowMs` defaults to 2 s. */
export function useExitGuard(store: ScreenStore, windowMs = 2000): ExitGuard {
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const press = useCallback(() => {
    clearTimeout(timer.current);
    if (store.getState().exitArmed) {
      store.dispatch({ type: "exit_disarm" });
      return true;
    }
    store.dispatch({ type: "exit_arm" });
    timer.current = setTimeout(() => store.dispatch({ type: "exit_disarm" }), windowMs);
    return false;
  }, [store, windowMs]);
  return { press };
}
