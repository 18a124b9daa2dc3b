/**
 * Small pure formatters shared by the components: token counts, durations, ids, tool arguments
 * and line excerpts. No React here, so they are unit-tested directly.
 */
import type { Usage } from "../../src/protocol/messages.js";

/** `950`, `1.2k`, `12k`, `3.4M`. */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "0";
  if (n < 1000) return String(Math.round(n));
  if (n < 10_000) return `${(n / 1000).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export { totalTokens } from "../../src/protocol/messages.js";

/** `0.4s`, `2.1s`, `1m05s`, `1h02m`. */
export function formatDuration(ms: number): string {
  const safe = Math.max(0, Number.isFinite(ms) ? ms : 0);
  if (safe < 60_000) return `${(safe / 1000).toFixed(1)}s`;
  const totalSeconds = Math.floor(safe / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  if (minutes < 60) return `${minutes}m${String(totalSeconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

/** The distinctive tail of a session id (`20261202-142301-ab12cd` → `ab12cd`), see src/session/ids.ts. */
export { shortId } from "../../src/session/ids.js";

/** Cuts `text` to `max` characters, ending with `…` when cut. */
export function truncate(text: string, max: number): string {
  if (max <= 0) return "";
  if (text.length <= max) return text;
  return max === 1 ? "…" : `${text.slice(0, max - 1)}…`;
}

/** The first non-empty line of `text`, trimmed ("" when none). */
export function firstLine(text: string): string {
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (t !== "") return t;
  }
  return "";
}

/** The last `n` non-empty lines of `text`. */
export function lastLines(text: string, n: number): string[] {
  if (n <= 0) return [];
  const lines = text.split("\n").map((l) => l.trimEnd()).filter((l) => l.trim() !== "");
  return lines.slice(-n);
}

/** The lines of `text` with trailing blank lines removed. */
export function contentLines(text: string): string[] {
  const lines = text.replace(/\s+$/, "").split("\n");
  return lines.length === 1 && lines[0] === "" ? [] : lines;
}

/** One argument value as shown on a tool line: strings quoted (newlines escaped), others as JSON. */
function formatValue(value: unknown, max: number): string {
  if (typeof value === "string") return JSON.stringify(truncate(value.replace(/\s*\n\s*/g, " ⏎ "), max));
  const json = JSON.stringify(value);
  return truncate(json === undefined ? String(value) : json, max);
}

/** Tool arguments as `pattern="login" ignoreCase=true`, capped at `max` characters. */
export function formatArgs(args: Record<string, unknown>, max = 120): string {
  const parts = Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${formatValue(v, 80)}`);
  return truncate(parts.join(" "), max);
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * How long each spinner glyph shows: 4 steps a second at most, so a spinner alone (the status
 * bar's, while the rest of the screen is still) changes the screen at most ~4 times a second —
 * each such frame costs ~34 bytes (synchronized-output markers, a move, the glyph, the caret's park).
 */
export const SPINNER_STEP_MS = 250;

/** The spinner glyph for clock time `now` (ms): one step every SPINNER_STEP_MS. */
export function spinnerFrame(now: number): string {
  return spinnerStep(Math.floor(Math.max(0, now) / SPINNER_STEP_MS));
}

/** The spinner's glyph at step `step` (0, 1, 2, … cycling). */
export function spinnerStep(step: number): string {
  return SPINNER[Math.max(0, Math.floor(step)) % SPINNER.length]!;
}

/** How long ago, coarsely: `12s`, `3m`, `5h`, `2d` (for lists of sessions). */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor((Number.isFinite(ms) ? ms : 0) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

/** Hard-wraps `text` to lines of at most `width` characters, breaking at a space when one is near. */
export function wrapText(text: string, width: number): string[] {
  const w = Math.max(8, width);
  const out: string[] = [];
  for (const raw of text.replace(/\t/g, "  ").split("\n")) {
    let line = raw.trimEnd();
    while (line.length > w) {
      const space = line.lastIndexOf(" ", w);
      const cut = space > w / 2 ? space : w;
      out.push(line.slice(0, cut).trimEnd());
      line = line.slice(cut).replace(/^ /, "");
    }
    out.push(line);
  }
  return out;
}
