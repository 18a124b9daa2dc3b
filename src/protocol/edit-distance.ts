/** Edit distance, for "did you mean" suggestions in error messages. */

/** Edit distance between two short strings (for "did you mean"). */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/**
 * The candidate nearest to `word` (case and `-`/`_` ignored) when it is near enough to be what was
 * meant: within edit distance 2, or a third of the word's length for longer words
 * (`max-childs` → `max-children`); undefined when none is.
 */
export function closestWord(word: string, candidates: readonly string[]): string | undefined {
  const squash = (w: string) => w.toLowerCase().replace(/[_-]/g, "");
  const typed = squash(word);
  const limit = Math.max(2, Math.floor(typed.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(typed, squash(candidate));
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
