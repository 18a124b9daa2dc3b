/**
 * The SGR codes in force along a styled line: what one SGR sequence opens, closes (`22` ends bold
 * and dim, `39` the foreground colour) or replaces (a new foreground colour the one before). One
 * reading for the renderer that draws rows (tree-rows.ts) and the diff that reads a row's text back
 * into cells (frame-diff.ts), so the two give a cell the same style.
 */

/** SGR closing codes → whether they end an open code. */
const CLOSES: Record<string, (code: string) => boolean> = {
  "22": (c) => c === "1" || c === "2",
  "23": (c) => c === "3",
  "24": (c) => c === "4",
  "25": (c) => c === "5",
  "27": (c) => c === "7",
  "28": (c) => c === "8",
  "29": (c) => c === "9",
  "39": (c) => /^(3[0-8]|9[0-7])(;|$)/.test(c),
  "49": (c) => /^(4[0-8]|10[0-7])(;|$)/.test(c),
};

/** Foreground and background colour codes: a new one replaces the one in force. */
const FOREGROUND = /^(3[0-8]|9[0-7])(;|$)/;
const BACKGROUND = /^(4[0-8]|10[0-7])(;|$)/;

/** SGR parameters split into codes, keeping 38/48/58 colour specs (38;5;n, 38;2;r;g;b) whole. */
export function splitSgr(params: string): string[] {
  if (!params.includes(";")) return [params];
  const parts = params.split(";");
  const codes: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if ((p === "38" || p === "48" || p === "58") && parts[i + 1] === "5") {
      codes.push(parts.slice(i, i + 3).join(";"));
      i += 2;
    } else if ((p === "38" || p === "48" || p === "58") && parts[i + 1] === "2") {
      codes.push(parts.slice(i, i + 5).join(";"));
      i += 4;
    } else codes.push(p);
  }
  return codes;
}

/** The codes open after the SGR sequence with parameters `params` (`"1;31"`, `""` = reset), from `open` (not changed). */
export function applySgr(open: readonly string[], params: string): string[] {
  let now = open as string[];
  for (const code of splitSgr(params)) {
    if (code === "" || code === "0") now = [];
    else if (CLOSES[code]) now = now.filter((c) => !CLOSES[code]!(c));
    else now = [...now.filter((c) => c !== code && !(FOREGROUND.test(code) && FOREGROUND.test(c)) && !(BACKGROUND.test(code) && BACKGROUND.test(c))), code];
  }
  return now;
}
