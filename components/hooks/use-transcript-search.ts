/**
 * useTranscriptSearch: Ctrl-F over the full-screen transcript. While open it has the keyboard:
 * typing edits the query, Enter or ↑ jumps to the next older hit, ↓ to the next newer one, Esc
 * closes (the view stays where the last hit put it), Ctrl-Y copies the current hit's item. Matching is case-insensitive over each
 * finished item's plain text; a jump scrolls the hit's first row to the top of the view (`showItem`,
 * which holds it there whatever the heights of the items drawn around it turn out to be).
 */
import { useInput } from "ink";
import { useMemo, useRef, useState } from "react";
import type { TranscriptItem } from "./transcript-types.js";

/** The searchable text of one item. */
export function itemText(item: TranscriptItem): string {
  switch (item.kind) {
    case "header":
      return `${item.cwd} ${item.notices.join(" ")}`;
    case "user":
    case "assistant":
    case "info":
      return item.text;
    case "thinking":
      return "";
    case "tool":
      return [item.name, JSON.stringify(item.args), item.child?.report ?? "", item.result ?? item.resultHead?.join("\n") ?? ""].join(" ");
  }
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

/** Search over `items`; `showItem(index)` scrolls item `index` to the view's top. */
export function useTranscriptSearch(items: readonly TranscriptItem[], showItem: (index: number) => void, copy?: (item: TranscriptItem) => void): TranscriptSearch {
  const [open, setOpenState] = useState(false);
  // Read at key time: keys typed right after Ctrl-F (before a re-render re-subscribed a handler) reach the search.
  const openRef = useRef(false);
  const setOpen = (value: boolean) => {
    openRef.current = value;
    setOpenState(value);
  };
  const [query, setQuery] = useState("");
  const [index, setIndex] = useState(-1);
  const hits = useMemo(() => (open ? searchItems(items, query) : []), [open, items, query]);
  const latest = useRef({ hits, index, items });
  latest.current = { hits, index, items };
  const jump = (to: number) => {
    const { hits: h } = latest.current;
    if (h.length === 0) return;
    const i = Math.max(0, Math.min(h.length - 1, to));
    showItem(h[i]!);
    setIndex(i);
  };
  useInput(
    (input, key) => {
      if (!openRef.current) return;
      if (key.escape) return setOpen(false);
      if (key.return || key.upArrow) return jump(latest.current.index + 1);
      if (key.downArrow) return jump(latest.current.index - 1);
      if (key.ctrl && input === "y") {
        const { hits: h, index: i, items: all } = latest.current;
        if (i >= 0 && h[i] !== undefined) copy?.(all[h[i]!]!);
        return;
      }
      if (key.backspace || key.delete) {
        setQuery((q) => q.slice(0, -1));
        setIndex(-1);
        return;
      }
      if (key.ctrl || key.meta || key.tab) return;
      if (input) {
        setQuery((q) => q + input);
        setIndex(-1);
      }
    },
    { isActive: true },
  );
  return {
    open,
    query,
    hits,
    index,
    start: () => {
      setOpen(true);
      setIndex(-1);
    },
  };
}
