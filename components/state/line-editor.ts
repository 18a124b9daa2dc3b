/**
 * The prompt's line editor, pure. `splitKeys` turns one raw input chunk (as the terminal sent it:
 * several keys may arrive together — a held key, tmux send-keys, a loaded machine, a paste) into
 * keys; `reduceLine` applies one key to the text and cursor and says when the key asks for
 * something the editor cannot do alone (submit, history recall, interrupt).
 *
 * A chunk is handled key by key, however the keys were grouped: `hello` CR `x` submits "hello" and
 * starts a new draft with `x`, as when typed one at a time. Only between the bracketed-paste
 * markers (ESC[200~ … ESC[201~, which the TUI turns on) is a CR a line break and a Tab indentation.
 * A line break is typed with Alt-Enter (ESC CR), Shift-Enter where the terminal reports it
 * (`ESC[13;2u`, `ESC[27;2;13~`), or `\` then Enter (the backslash is replaced by the break).
 */

/** The text being edited. `cursor` is a UTF-16 index into `value` (0..value.length). */
export interface LineState {
  value: string;
  cursor: number;
  /** Inside a bracketed paste. */
  pasting: boolean;
}

/** One key of a chunk. */
export type EditKey =
  | { kind: "insert"; text: string }
  /** Enter (CR, LF or CRLF): submits, or a line break inside a bracketed paste. */
  | { kind: "newline" }
  | { kind: "backspace" | "delete" | "left" | "right" | "home" | "end" | "wordLeft" | "wordRight" }
  | { kind: "killStart" | "killEnd" | "killWordBack" | "killWordForward" }
  | { kind: "up" | "down" | "interrupt" | "pasteStart" | "pasteEnd" }
  /** A lone Esc (or Esc Esc): the editor leaves the text alone; the owner may close a menu. */
  | { kind: "escape" }
  /** Alt-Enter / Shift-Enter: always a line break. */
  | { kind: "breakLine" }
  /** Tab (completion, or the screen's focus key); indentation inside a bracketed paste. */
  | { kind: "tab" };

/** What a key asks of the editor's owner. */
export type LineEffect = "submit" | "up" | "down" | "interrupt" | "tab" | "escape";

/** An empty line. */
export const EMPTY_LINE: LineState = { value: "", cursor: 0, pasting: false };

/** `text` with the cursor at its end. */
export function lineOf(text: string): LineState {
  return { value: text, cursor: text.length, pasting: false };
}

const CSI: Record<string, EditKey["kind"]> = {
  "[A": "up", OA: "up", "[B": "down", OB: "down",
  "[C": "right", OC: "right", "[D": "left", OD: "left",
  "[H": "home", OH: "home", "[1~": "home", "[7~": "home",
  "[F": "end", OF: "end", "[4~": "end", "[8~": "end",
  "[3~": "delete", "[200~": "pasteStart", "[201~": "pasteEnd",
};

/** Ctrl/Alt + ←/→ (`ESC[1;5D`, `ESC[1;3C`, …) move by words. */
const MODIFIED_ARROW = /^\[1;\d+([CD])$/;
/** Enter with a modifier, as the kitty keyboard protocol (`ESC[13;2u`) or xterm's modifyOtherKeys (`ESC[27;2;13~`) report it. */
const MODIFIED_ENTER = /^\[(13;\d+u|27;\d+;13~)$/;

const CTRL: Record<string, EditKey["kind"]> = {
  "\u0001": "home", "\u0002": "left", "\u0003": "interrupt", "\u0004": "delete", "\u0005": "end", "\u0006": "right",
  "\b": "backspace", "\u000b": "killEnd", "\u000e": "down", "\u0010": "up", "\u0015": "killStart", "\u0017": "killWordBack", "\u007f": "backspace",
};

/** Alt + key (ESC then the key). */
const ALT: Record<string, EditKey["kind"]> = { b: "wordLeft", f: "wordRight", d: "killWordForward", "\u007f": "killWordBack", "\b": "killWordBack", "\r": "breakLine", "\n": "breakLine" };

/** The length of the escape sequence starting at `i` (an ESC), or 1 for a lone ESC. */
function escapeLength(raw: string, i: number): number {
  const next = raw[i + 1];
  if (next === "\u001b") return 1 + escapeLength(raw, i + 1);
  if (next === "[") {
    let j = i + 2;
    while (j < raw.length && /[0-9;?<=>[]/.test(raw[j]!)) j++;
    return Math.min(raw.length, j + 1) - i;
  }
  if (next === "O") return Math.min(3, raw.length - i);
  return next === undefined ? 1 : 2;
}

/** The key of one escape sequence (without its ESC); undefined for keys the editor ignores (Shift-Tab, F-keys). */
function escapeKey(seq: string): EditKey | undefined {
  if (seq === "") return { kind: "escape" };
  if (seq.startsWith("\u001b")) {
    // ESC ESC [D: Alt + arrow in some terminals.
    const inner = escapeKey(seq.slice(1));
    if (inner?.kind === "left") return { kind: "wordLeft" };
    if (inner?.kind === "right") return { kind: "wordRight" };
    return inner;
  }
  const named = CSI[seq];
  if (named) return { kind: named } as EditKey;
  const arrow = MODIFIED_ARROW.exec(seq);
  if (arrow) return { kind: arrow[1] === "D" ? "wordLeft" : "wordRight" };
  if (MODIFIED_ENTER.test(seq)) return { kind: "breakLine" };
  const alt = ALT[seq];
  return alt ? ({ kind: alt } as EditKey) : undefined;
}

/** The keys of one raw input chunk, in order. */
export function splitKeys(raw: string): EditKey[] {
  const keys: EditKey[] = [];
  let text = "";
  const flush = () => {
    if (text !== "") keys.push({ kind: "insert", text });
    text = "";
  };
  for (let i = 0; i < raw.length; ) {
    const ch = raw[i]!;
    if (ch === "\u001b") {
      const length = escapeLength(raw, i);
      flush();
      const key = escapeKey(raw.slice(i + 1, i + length));
      if (key) keys.push(key);
      i += length;
    } else if (ch === "\r" || ch === "\n") {
      flush();
      const step = ch === "\r" && raw[i + 1] === "\n" ? 2 : 1;
      keys.push({ kind: "newline" });
      i += step;
    } else if (ch === "\t") {
      flush();
      keys.push({ kind: "tab" });
      i++;
    } else if (CTRL[ch]) {
      flush();
      keys.push({ kind: CTRL[ch]! } as EditKey);
      i++;
    } else if (ch < " ") i++; // other control keys do nothing
    else {
      text += ch;
      i++;
    }
  }
  flush();
  return keys;
}

const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Index of the character before `i` (a surrogate pair counts as one). */
function before(value: string, i: number): number {
  if (i <= 0) return 0;
  return i >= 2 && isLow(value.charCodeAt(i - 1)) ? i - 2 : i - 1;
}

/** Index after the character at `i`. */
function after(value: string, i: number): number {
  if (i >= value.length) return value.length;
  return i + 1 < value.length && isLow(value.charCodeAt(i + 1)) ? i + 2 : i + 1;
}

const WORD = /[\p{L}\p{N}_]/u;

/** Start of the word before `i` (readline's Alt-b). */
function wordStart(value: string, i: number): number {
  let j = i;
  while (j > 0 && !WORD.test(value[j - 1]!)) j--;
  while (j > 0 && WORD.test(value[j - 1]!)) j--;
  return j;
}

/** End of the word after `i` (readline's Alt-f). */
function wordEnd(value: string, i: number): number {
  let j = i;
  while (j < value.length && !WORD.test(value[j]!)) j++;
  while (j < value.length && WORD.test(value[j]!)) j++;
  return j;
}

/** Start of the whitespace-delimited word before `i` (Ctrl-W). */
function bigWordStart(value: string, i: number): number {
  let j = i;
  while (j > 0 && /\s/.test(value[j - 1]!)) j--;
  while (j > 0 && !/\s/.test(value[j - 1]!)) j--;
  return j;
}

const lineStart = (value: string, i: number) => value.lastIndexOf("\n", i - 1) + 1;
function lineEnd(value: string, i: number): number {
  const nl = value.indexOf("\n", i);
  return nl === -1 ? value.length : nl;
}

/** `state` with `value.slice(from, to)` replaced by `text`, the cursor after it. */
function splice(state: LineState, from: number, to: number, text = ""): LineState {
  return { ...state, value: state.value.slice(0, from) + text + state.value.slice(to), cursor: from + text.length };
}

const at = (state: LineState, cursor: number): LineState => (cursor === state.cursor ? state : { ...state, cursor });

/** Applies one key (pure). Keys that only ask something of the owner leave the text as it is. */
export function reduceLine(state: LineState, key: EditKey): { state: LineState; effect?: LineEffect } {
  const { value, cursor } = state;
  switch (key.kind) {
    case "insert":
      return { state: splice(state, cursor, cursor, key.text) };
    case "newline":
      if (state.pasting) return { state: splice(state, cursor, cursor, "\n") };
      // `\` then Enter: the backslash becomes a line break instead of submitting.
      if (value[cursor - 1] === "\\") return { state: splice(state, cursor - 1, cursor, "\n") };
      return { state, effect: "submit" };
    case "breakLine":
      return { state: splice(state, cursor, cursor, "\n") };
    case "tab":
      // Pasted indentation (two spaces: a Tab has no width of its own in the box).
      if (state.pasting) return { state: splice(state, cursor, cursor, "  ") };
      return { state, effect: "tab" };
    case "backspace":
      return { state: splice(state, before(value, cursor), cursor) };
    case "delete":
      return { state: splice(state, cursor, after(value, cursor)) };
    case "left":
      return { state: at(state, before(value, cursor)) };
    case "right":
      return { state: at(state, after(value, cursor)) };
    case "home":
      return { state: at(state, lineStart(value, cursor)) };
    case "end":
      return { state: at(state, lineEnd(value, cursor)) };
    case "wordLeft":
      return { state: at(state, wordStart(value, cursor)) };
    case "wordRight":
      return { state: at(state, wordEnd(value, cursor)) };
    case "killStart":
      return { state: splice(state, lineStart(value, cursor), cursor) };
    case "killEnd":
      return { state: splice(state, cursor, lineEnd(value, cursor)) };
    case "killWordBack":
      return { state: splice(state, bigWordStart(value, cursor), cursor) };
    case "killWordForward":
      return { state: splice(state, cursor, wordEnd(value, cursor)) };
    case "pasteStart":
    case "pasteEnd":
      return { state: { ...state, pasting: key.kind === "pasteStart" } };
    case "up":
    case "down":
    case "interrupt":
    case "escape":
      return { state, effect: key.kind };
  }
}

/** True when `keys` are plain typed text (at least one character; only text, line breaks and paste markers). */
export function isPlainTyping(keys: readonly EditKey[]): boolean {
  return keys.some((k) => k.kind === "insert") && keys.every((k) => k.kind === "insert" || k.kind === "newline" || k.kind === "pasteStart" || k.kind === "pasteEnd");
}
