/**
 * useMentionFiles: the working tree's files for the `@` menu, listed in the background the first
 * time the person types `@` (never at start-up) and listed again when a later `@` comes more than
 * REFRESH_MS after the last listing, so new files appear.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { listMentionFiles } from "../../src/context/mentions.js";

const REFRESH_MS = 10_000;

/** The files (empty until listed) and `want()`, to call when an `@` is being typed. */
export function useMentionFiles(cwd: string): { files: readonly string[]; want: () => void } {
  const [files, setFiles] = useState<readonly string[]>([]);
  const listedAt = useRef(0);
  const listing = useRef(false);
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);
  const want = useCallback(() => {
    if (listing.current || Date.now() - listedAt.current < REFRESH_MS) return;
    listing.current = true;
    listMentionFiles(cwd)
      .then((list) => {
        if (alive.current) setFiles(list);
      })
      .catch(() => undefined) // an unreadable tree: no menu, typing still works
      .finally(() => {
        listing.current = false;
        listedAt.current = Date.now();
      });
  }, [cwd]);
  return { files, want };
}
