/**
 * What the bytes a run wrote to the terminal carry: the profile a missed byte target is named with.
 * The bytes are split by kind — text (printable characters, UTF-8 bytes included), colours (SGR),
 * cursor moves (CUP, CUU/CUD/CUF/CUB, CHA, VPA, CR/LF, BS, save/restore), erases and edits (EL, ED,
 * ECH, ICH/DCH), scrolls (IL/DL, SU/SD, DECSTBM, RI), synchronized-output markers (`?2026h/l`),
 * other modes (cursor shown/hidden, mouse, alternate screen, bracketed paste) and the rest (OSC
 * titles and notifications, the bell, anything not known) — so a reader sees which rows to look at.
 * Every byte is counted once: the kinds add up to the length.
 */

export type ByteKind = "text" | "colours" | "moves" | "erases" | "scrolls" | "markers" | "modes" | "other";

export type ByteProfile = Record<ByteKind, number>;

const KINDS: readonly ByteKind[] = ["text", "colours", "moves", "erases", "scrolls", "markers", "modes", "other"];

/** CSI final bytes by kind (private-mode `h`/`l` are looked at apart). */
const CSI_KIND: Record<string, ByteKind> = {
  m: "colours",
  A: "moves", B: "moves", C: "moves", D: "moves", E: "moves", F: "moves", G: "moves", H: "moves", f: "moves",
  d: "moves", e: "moves", a: "moves", "`": "moves", s: "moves", u: "moves",
  J: "erases", K: "erases", X: "erases", P: "erases", "@": "erases",
  L: "scrolls", M: "scrolls", S: "scrolls", T: "scrolls", r: "scrolls",
};

/**
 * The profile of `written`, a run's bytes read as latin1 (one character a byte). A sequence cut
 * off at the end is counted as other.
 */
export function bytesProfile(written: string): ByteProfile {
  const out = Object.fromEntries(KINDS.map((k) => [k, 0])) as ByteProfile;
  let i = 0;
  const n = written.length;
  while (i < n) {
    const c = written.charCodeAt(i);
    if (c === 0x1b) {
      const next = written[i + 1];
      if (next === "[") {
        let j = i + 2;
        while (j < n && /[0-9;:<=>?]/.test(written[j]!)) j++;
        while (j < n && /[ -/]/.test(written[j]!)) j++;
        if (j >= n) {
          out.other += n - i;
          break;
        }
        const final = written[j]!;
        const params = written.slice(i + 2, j);
        let kind: ByteKind = CSI_KIND[final] ?? "other";
        if (params.startsWith("?") && (final === "h" || final === "l")) kind = params === "?2026" ? "markers" : "modes";
        out[kind] += j + 1 - i;
        i = j + 1;
      } else if (next === "]" || next === "P" || next === "_") {
        // OSC / DCS / APC: to BEL or ST
        let j = i + 2;
        while (j < n && written.charCodeAt(j) !== 0x07 && !(written.charCodeAt(j) === 0x1b && written[j + 1] === "\\")) j++;
        const end = j >= n ? n : written.charCodeAt(j) === 0x07 ? j + 1 : j + 2;
        out.other += end - i;
        i = end;
      } else if (next === "7" || next === "8") {
        out.moves += 2;
        i += 2;
      } else if (next === "M" || next === "D") {
        out.scrolls += 2;
        i += 2;
      } else {
        const len = next === undefined ? 1 : 2;
        out.other += len;
        i += len;
      }
    } else if (c === 0x0d || c === 0x0a || c === 0x08) {
      out.moves++;
      i++;
    } else if (c < 0x20 || c === 0x7f) {
      out.other++;
      i++;
    } else {
      out.text++;
      i++;
    }
  }
  return out;
}

/** `profile` as a line, kinds largest first, in KB (kinds under 0.5 KB left out): "text 80 KB, moves 12 KB, …". */
export function formatProfile(profile: ByteProfile): string {
  return KINDS.filter((k) => profile[k] >= 500)
    .sort((a, b) => profile[b] - profile[a])
    .map((k) => `${k} ${(profile[k] / 1e3).toFixed(profile[k] >= 10e3 ? 0 : 1)} KB`)
    .join(", ");
}

/** The median profile of several runs as a figure's extra values: `bytes.text`, `bytes.moves`, … */
export function profileExtra(profiles: ByteProfile[]): Record<string, number> {
  const out: Record<string, number> = {};
  if (profiles.length === 0) return out;
  for (const k of KINDS) {
    const s = profiles.map((p) => p[k]).sort((a, b) => a - b);
    out[`bytes.${k}`] = s[Math.floor(s.length / 2)]!;
  }
  return out;
}

/** The profile kept in a figure's extra values by profileExtra, back as a profile (undefined when none was kept). */
export function profileOf(extra: Record<string, number> | undefined): ByteProfile | undefined {
  if (!extra || extra["bytes.text"] === undefined) return undefined;
  return Object.fromEntries(KINDS.map((k) => [k, extra[`bytes.${k}`] ?? 0])) as ByteProfile;
}
