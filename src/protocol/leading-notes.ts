/**
 * Notes carried at the start of a user message (resumed children's reports, the person's `!`
 * commands): each kind has its own format; this splits a run of them off the front.
 */

/** The notes matched by `note` (anchored at the start) one after another at the front of `text`, read by `read`, and the rest. */
export function splitLeadingNotes<T>(text: string, note: RegExp, read: (m: RegExpExecArray) => T): { notes: T[]; text: string } {
  const notes: T[] = [];
  let rest = text;
  for (let m = note.exec(rest); m; m = note.exec(rest)) {
    notes.push(read(m));
    rest = rest.slice(m[0].length);
  }
  return { notes, text: rest };
}

/** `decode(text)`, or `text` itself when it cannot be decoded. */
export function decodedOr(text: string, decode: (t: string) => unknown): string {
  try {
    return String(decode(text));
  } catch {
    return text;
  }
}
