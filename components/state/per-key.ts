/**
 * Key by key over ink's `useInput`: ink splits a chunk from the terminal only at escape sequences,
 * so keys that arrive together (tmux send-keys, a fast typist on a loaded machine, an unbracketed
 * paste) reach a `useInput` handler as ONE input with no key flags — `please\rx` is neither text
 * nor Enter. `perKey(handler)` wraps a handler so it gets each key of such a run alone, with the
 * input and flags ink gives that key when it arrives by itself (Enter `\r` → key.return, Tab,
 * Backspace `\b`, DEL `\x7f` → key.delete, Ctrl-letters, Shift for capitals); CRLF is one Enter.
 *
 * For a handler that reads React state between keys: the keys of one chunk run in one batch, so
 * keep what must change between them in a ref (or use functional updates). Pasted text between
 * bracketed-paste markers is split like any other run (a text field that keeps pasted line breaks
 * needs the markers: see line-editor.ts).
 */
import type { Key } from "ink";

/** A useInput handler. */
export type InputHandler = (input: string, key: Key) => void;

/** The flags of a key that is plain text (all false). */
const NO_FLAGS: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false,
  home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false,
  backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false,
};

/** True when ink recognised `key` as a key of its own (some flag set). */
const flagged = (key: Key) => Object.values(key).some((v) => v === true);

/** What ink's useInput reports for the single key `ch` (one character, or CRLF) arriving alone. */
function keyOf(ch: string): { input: string; key: Key } {
  if (ch === "\r" || ch === "\r\n") return { input: "\r", key: { ...NO_FLAGS, return: true } };
  if (ch === "\t") return { input: "", key: { ...NO_FLAGS, tab: true } };
  if (ch === "\b") return { input: "", key: { ...NO_FLAGS, backspace: true } };
  if (ch === "\u007f") return { input: "", key: { ...NO_FLAGS, delete: true } };
  if (ch.length === 1 && ch >= "\u0001" && ch <= "\u001a" && ch !== "\n") return { input: String.fromCharCode(ch.charCodeAt(0) + 96), key: { ...NO_FLAGS, ctrl: true } };
  return { input: ch, key: /^[A-Z]$/.test(ch) ? { ...NO_FLAGS, shift: true } : NO_FLAGS };
}

/**
 * The keys of one useInput event: the event itself when ink recognised it as one key (or it is a
 * single character), else each character of the run (a surrogate pair is one, CRLF one Enter).
 */
export function splitInput(input: string, key: Key): Array<{ input: string; key: Key }> {
  const chars = Array.from(input);
  if (flagged(key) || chars.length <= 1) return [{ input, key }];
  const keys: Array<{ input: string; key: Key }> = [];
  for (let i = 0; i < chars.length; i++) {
    const crlf = chars[i] === "\r" && chars[i + 1] === "\n";
    keys.push(keyOf(crlf ? "\r\n" : chars[i]!));
    if (crlf) i++;
  }
  return keys;
}

/** `handler`, called once per key of each useInput event (see `splitInput`). */
export function perKey(handler: InputHandler): InputHandler {
  return (input, key) => {
    for (const k of splitInput(input, key)) handler(k.input, k.key);
  };
}
