/**
 * A marker every process of an unsandboxed `bash` call inherits: a descriptor (number MARKER_FD)
 * open on a file whose name is removed at once, so its `/proc/<pid>/fd` link is unique to the
 * call. Unlike the process group and the `INK_CALL_ID` variable, `setsid`, `env -i` and `env -u`
 * keep it; only a process that closes that descriptor escapes.
 */
import { closeSync, openSync, realpathSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The descriptor number of the marker in the call's shell (rarely used by scripts, below bash's own 10+ only when free). */
export const MARKER_FD = 19;

export interface CallMarker {
  /** The parent's descriptor, to pass at MARKER_FD; close it once the shell started. */
  fd: number;
  /** What `/proc/<pid>/fd/<n>` shows for a process holding it. */
  link: string;
}

/** Opens the marker of call `tag`; undefined when no temp file can be made (the group and tag still track the call). */
export function openCallMarker(tag: string): CallMarker | undefined {
  try {
    const path = join(realpathSync(tmpdir()), `${tag}.marker`);
    const fd = openSync(path, "wx", 0o600);
    unlinkSync(path);
    return { fd, link: `${path} (deleted)` };
  } catch {
    return undefined;
  }
}

/** The spawn stdio for an unsandboxed shell: stdin ignored, stdout/stderr piped, the marker at MARKER_FD. */
export function markedStdio(marker: CallMarker | undefined): Array<"ignore" | "pipe" | number> {
  return marker ? ["ignore", "pipe", "pipe", ...Array<"ignore">(MARKER_FD - 3).fill("ignore"), marker.fd] : ["ignore", "pipe", "pipe"];
}

/** Closes the parent's copy of the marker (the call's processes keep theirs). */
export function closeParentCopy(marker: CallMarker | undefined): void {
  if (!marker) return;
  try {
    closeSync(marker.fd);
  } catch {
    // already closed
  }
}
