/**
 * Prompt completion, pure: what can complete the word at the cursor — a slash command (the draft's
 * first word, starting with `/`) or an `@path` mention (any word starting with `@`, matched
 * against the working tree's files) — and the text once a choice is taken.
 */
import type { LineState } from "./line-editor.js";

/** One choice of the menu. */
export interface CompletionItem {
  /** What replaces the word (e.g. "/help", "@src/cli.tsx"). */
  insert: string;
  /** Shown beside it (a command's help). */
  detail?: string;
}

/** The open menu: the word it replaces (`start`..`end` in the draft) and the choices, best first. */
export interface Completion {
  kind: "command" | "file";
  start: number;
  end: number;
  /** The typed word without its `/` or `@`. */
  query: string;
  items: CompletionItem[];
}

/** Where completion looks. */
export interface CompletionSources {
  commands: ReadonlyArray<{ name: string; help: string }>;
  /** Paths of the working tree, relative and `/`-separated (empty until listed). */
  files: readonly string[];
}

/** Most choices kept for a file mention. */
const MAX_FILE_ITEMS = 50;

/** Ranks `path` for `query` (lower is better): path prefix, file-name prefix, substring, then the characters in order; undefined when it does not match. */
function fileRank(path: string, query: string): number | undefined {
  if (query === "") return path.split("/").length * 1000 + path.length;
  const p = path.toLowerCase();
  const q = query.toLowerCase();
  const base = p.slice(p.lastIndexOf("/") + 1);
  if (p.startsWith(q)) return p.length;
  if (base.startsWith(q)) return 10_000 + p.length;
  const at = p.indexOf(q);
  if (at >= 0) return 20_000 + at * 10 + p.length;
  // Last: the query's characters in order (`comp/prom` finds components/views/Prompt.tsx).
  let i = 0;
  for (const ch of p) if (ch === q[i]) i++;
  return i === q.length ? 40_000 + p.length : undefined;
}

/**
 * The completion for the word at `state.cursor`, or undefined when nothing completes it. A command
 * name typed in full is the first choice (others it is a prefix of follow), alone it opens no menu.
 */
export function completionAt(state: Pick<LineState, "value" | "cursor">, sources: CompletionSources): Completion | undefined {
  const { value, cursor } = state;
  const start = Math.max(value.lastIndexOf(" ", cursor - 1), value.lastIndexOf("\n", cursor - 1)) + 1;
  let end = cursor;
  while (end < value.length && !/\s/.test(value[end]!)) end++;
  const word = value.slice(start, end);
  if (start === 0 && word.startsWith("/") && !/\s/.test(value.slice(0, cursor))) {
    const query = word.slice(1).toLowerCase();
    const items = sources.commands.filter((c) => c.name.slice(1).startsWith(query)).map((c) => ({ insert: c.name, detail: c.help }));
    // The exact name typed comes first, so it is the preselected choice: `/mode` + Enter runs /mode, not /model.
    const exact = items.findIndex((i) => i.insert === word.toLowerCase());
    if (exact > 0) items.unshift(...items.splice(exact, 1));
    if (items.length === 0 || (items.length === 1 && exact === 0)) return undefined;
    return { kind: "command", start, end, query, items };
  }
  if (word.startsWith("@")) {
    const query = word.slice(1);
    const ranked: Array<[number, string]> = [];
    for (const path of sources.files) {
      const rank = fileRank(path, query);
      if (rank !== undefined) ranked.push([rank, path]);
    }
    ranked.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
    const items = ranked.slice(0, MAX_FILE_ITEMS).map(([, path]) => ({ insert: `@${path}` }));
    if (items.length === 0 || (items.length === 1 && items[0]!.insert === word)) return undefined;
    return { kind: "file", start, end, query, items };
  }
  return undefined;
}

/** The draft with `item` in place of the completed word, followed by a space; the cursor after it. */
export function applyCompletion(state: LineState, completion: Completion, item: CompletionItem): LineState {
  const after = state.value.slice(completion.end);
  const gap = after.startsWith(" ") ? "" : " ";
  const value = state.value.slice(0, completion.start) + item.insert + gap + after;
  return { ...state, value, cursor: completion.start + item.insert.length + 1 };
}
