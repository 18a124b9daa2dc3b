/** A size for people and the model, in one format everywhere: `512 B`, `12.0 KB`, `3.4 MB` (1 KB = 1024 bytes). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
