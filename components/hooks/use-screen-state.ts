/**
 * useScreenState: the screen's one state store (state/screen-state.ts), made once per screen and
 * read with React's useSyncExternalStore: the screen re-renders when an action changed the state.
 * The store goes to the hooks that act on keys and timers (they dispatch actions and read
 * `getState()` at key time); the views get what they show as props.
 */
import { useState, useSyncExternalStore } from "react";
import { createScreenStore, type ScreenState, type ScreenStore } from "../state/screen-state.js";

/** The screen's state now and its store (the same store for the screen's whole life). */
export function useScreenState(): readonly [ScreenState, ScreenStore] {
  const [store] = useState(() => createScreenStore());
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  return [state, store];
}
