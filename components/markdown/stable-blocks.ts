/**
 * Stable blocks: the parsed blocks of a text that changes a little at a time (a streaming answer's
 * live tail, re-parsed as each token arrives) keyed by their content, so a block that did not
 * change keeps its object and its React key from one parse to the next — its memoised view is not
 * drawn again, and a block scrolling off the top does not shift the keys of those below it.
 */
import type { MdBlock } from "./parse-markdown.js";

/** A block and its key: its content, with `#n` for the n-th repeat of the same content. */
export interface KeyedBlock {
  key: string;
  block: MdBlock;
}

/**
 * `next` keyed by content and occurrence; each block whose key `prev` has is `prev`'s object (equal
 * content), every other block is `next`'s own.
 */
export function stableBlocks(prev: readonly KeyedBlock[], next: readonly MdBlock[]): KeyedBlock[] {
  const old = new Map<string, MdBlock>();
  for (const k of prev) old.set(k.key, k.block);
  const seen = new Map<string, number>();
  return next.map((block) => {
    const content = JSON.stringify(block);
    const n = seen.get(content) ?? 0;
    seen.set(content, n + 1);
    const key = n === 0 ? content : `${content}#${n}`;
    return { key, block: old.get(key) ?? block };
  });
}
