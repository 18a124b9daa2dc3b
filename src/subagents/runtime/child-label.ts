/**
 * A child's short description (`task`'s `description`, 3–6 words): how every view names the
 * child — its pane, row, summary line, sidebar row, overlay title, /cost row and print mode's
 * progress lines. A description that is too long is cut (with a note for the model), never
 * refused; a child started without one is named by the first words of its first prompt.
 */

/** Most words a description keeps. */
export const DESCRIPTION_MAX_WORDS = 6;
/** Most characters a description keeps (after the word cap). */
export const DESCRIPTION_MAX_CHARS = 48;
/** Words of the prompt used when no description was given. */
const FALLBACK_WORDS = 5;

/** A description as given, cleaned: whitespace runs made one space, trimmed, cut to the caps. */
export interface NormalizedDescription {
  /** The kept text; undefined when nothing (or only whitespace) was given. */
  text?: string;
  /** Set when the given text was cut: a note for the model naming what was kept. */
  note?: string;
}

/** Cleans a `task` description: one line, at most DESCRIPTION_MAX_WORDS words and DESCRIPTION_MAX_CHARS characters. */
export function normalizeDescription(raw: string | undefined): NormalizedDescription {
  const clean = (raw ?? "").replace(/\s+/g, " ").trim();
  if (clean === "") return {};
  const text = cutWords(clean, DESCRIPTION_MAX_WORDS, DESCRIPTION_MAX_CHARS);
  if (text === clean) return { text };
  return { text, note: `[task] description cut to "${text}" (keep it to 3–6 words).` };
}

/** The first words of `prompt`'s first non-empty line, cut like a description ("" for an empty prompt). */
export function promptWords(prompt: string): string {
  const line = prompt.split("\n").find((l) => l.trim() !== "") ?? "";
  return cutWords(line.replace(/\s+/g, " ").trim(), FALLBACK_WORDS, DESCRIPTION_MAX_CHARS);
}

/** What names a child: its description, else the first words of its (first) prompt ("" when both are empty). */
export function childDescription(child: { description?: string; prompt?: string }): string {
  const given = child.description?.replace(/\s+/g, " ").trim();
  if (given) return given;
  return promptWords(child.prompt ?? "");
}

/** `scout · find the login handler` (no profile: `general · …`; nothing to describe it: the profile alone): a child's name without its id. */
export function childTitle(child: { profile?: string; description?: string; prompt?: string }): string {
  const what = childDescription(child);
  return what ? `${child.profile ?? "general"} · ${what}` : (child.profile ?? "general");
}

/** At most `words` words and `chars` characters of `text` (a cut inside a word ends in "…"). */
function cutWords(text: string, words: number, chars: number): string {
  const out = text.split(" ").slice(0, words).join(" ");
  return out.length > chars ? `${out.slice(0, chars - 1).trimEnd()}…` : out;
}
