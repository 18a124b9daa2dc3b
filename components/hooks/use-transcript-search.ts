/**
 * useTranscriptSearch: Ctrl-F over the full-screen transcript. While open it has the keyboard:
 * typing edits the query, Enter or ↑ jumps to the next older hit, ↓ to the next newer one, Esc
 * closes (the view stays where the last hit put it), Ctrl-Y copies the current hit's item, Ctrl-U
 * clears the query; each Ctrl-F starts with an empty one. Matching is case-insensitive over each
 * finished item's plain text (thoughts too); a jump scrolls the hit's first row to the top of the view (`showItem`,
 * given the query so it can put a hit inside a long answer on the hit's own row, holds it there
 * whatever the heights of the items drawn around it turn out to be).
 */
import { useInput } from "ink";
import { itemCopyText } from "../state/copy-answer.js";
import { perKey } from "../state/per-key.js";
import { useMemo, useRef } from "react";
import type { TranscriptItem } from "../state/transcript-types.js";
import type { ScreenStore, SearchState } from "../state/screen-state.js";

/** The searchable text of one item: what copying it gives (its message, the thought, the header's notices), and for a tool call its name, arguments, report and result. */
export function itemText(item: TranscriptItem): string {
  if (item.kind !== "tool") return itemCopyText(item);
  return [item.name, JSON.stringify(item.args), item.child?.report ?? "", item.result ?? item.resultHead?.join("\n") ?? ""].join(" "); // a report folded into the result is searched there
}

/** Indexes of the items containing `query` (case-insensitive), newest first. */
export function searchItems(items: readonly TranscriptItem[], query: string): number[] {
  const q = query.toLowerCase();
  if (q === "") return [];
  const hits: number[] = [];
  for (let i = items.length - 1; i >= 0; i--) if (itemText(items[i]!).toLowerCase().includes(q)) hits.push(i);
  return hits;
}

export interface TranscriptSearch {
  open: boolean;
  query: string;
  /** Hits, newest first, and the current one (-1 before the first jump). */
  hits: number[];
  index: number;
  start(): void;
}

/**
 * Search over `items`, its state `state` (the screen store's, changed through `store`);
 * `showItem(index, query)` scrolls item `index` (where it holds `query`) to the view's top.
 */
export function useTranscriptSearch(store: ScreenStore, state: SearchState, items: readonly TranscriptItem[], showItem: (index: number, query: string) => void, copy?: (item: TranscriptItem) => void): TranscriptSearch {
  const { open, query, index } = state;
  const hits = useMemo(() => (open ? searchItems(items, query) : []), [open, items, query]);
  const latest = useRef({ hits, query, items, showItem, copy });
  latest.current = { hits, query, items, showItem, copy };
  // Keys read the store at key time: the keys of one chunk all come before the next render, and
  // keys typed right after Ctrl-F (before a re-render) reach the search.
  const now = () => store.getState().search;
  const edit = (next: string) => store.dispatch({ type: "search_edit", query: next });
  const hitsNow = () => (now().query === latest.current.query ? latest.current.hits : searchItems(latest.current.items, now().query));
  const jump = (to: number) => {
    const h = hitsNow();
    if (h.length === 0) return;
    const i = Math.max(0, Math.min(h.length - 1, to));
    latest.current.showItem(h[i]!, now().query);
    store.dispatch({ type: "search_jump", index: i });
  };
  useInput(
    // Key by key: `login` + Enter sent together searches, then jumps.
    perKey((input, key) => {
      if (!now().open) return;
      if (key.escape) return store.dispatch({ type: "search_close" });
      if (key.return || key.upArrow) return jump(now().index + 1);
      if (key.downArrow) return jump(now().index - 1);
      if (key.ctrl && input === "y") {
        const h = hitsNow();
        const i = now().index;
        if (i >= 0 && h[i] !== undefined) latest.current.copy?.(latest.current.items[h[i]!]!);
        return;
      }
      if (key.backspace || key.delete) return edit(now().query.slice(0, -1));
      if (key.ctrl && input === "u") return edit(""); // as on the prompt: clear the query
      if (key.ctrl || key.meta || key.tab) return;
      if (input) edit(now().query + input);
    }),
    { isActive: true },
  );
  return {
    open,
    query,
    hits,
    index,
    // Each search starts empty: what is typed is the new query, not added to the last one.
    start: () => store.dispatch({ type: "search_start" }),
  };
}
