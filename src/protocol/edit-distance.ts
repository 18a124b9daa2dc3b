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

/** The candidate within edit distance 2 of `word` (case and `-`/`_` ignored), if any. */
export function closestWord(word: string, candidates: readonly string[]): string | undefined {
  const squash = (w: string) => w.toLowerCase().replace(/[_-]/g, "");
  return candidates.find((c) => squash(c) === squash(word) || editDistance(squash(word), squash(c)) <= 2);
}
