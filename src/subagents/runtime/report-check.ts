/**
 * Reports that arrive (issue #25 item 5): a child that ends with no final text, or with only a
 * pointer to earlier output ("see above", "delivered earlier", "as mentioned"), has given its caller
 * nothing — the caller sees only the last message. Such a child is asked once more for its report.
 */

/** Longest text still taken for a mere pointer (a real report that says "see above" somewhere is longer). */
const POINTER_MAX_CHARS = 300;
const POINTER =
  /\b(see|refer to|check) (above|earlier|before|my (previous|earlier|last) (message|messages|answer|report|output)s?)\b|\b(delivered|provided|given|reported|shown|written|sent|posted|included|summari[sz]ed|listed) (above|earlier|before|previously)\b|\bas (mentioned|stated|noted|reported|described|shown|discussed|explained|said)( (above|earlier|before|previously))?\b|\balready (delivered|provided|given|reported|shared|sent)\b/i;

/** Why `text` is not a report: "empty", "pointer" (only refers to earlier output), or undefined when it is one. */
export function missingReport(text: string): "empty" | "pointer" | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return "empty";
  return trimmed.length <= POINTER_MAX_CHARS && POINTER.test(trimmed) ? "pointer" : undefined;
}

/** The message that asks a child, in its own history, for the report it did not give. */
export function reaskPrompt(why: "empty" | "pointer"): string {
  const what = why === "empty" ? "Your last message had no text" : "Your last message only pointed to earlier output";
  return `${what}, but your caller receives only your final message — nothing you wrote before it. Write your complete final report now, as your final message: every finding, path and result the task asked for, in full. Do not refer to earlier messages and do not call tools unless something is missing.`;
}
