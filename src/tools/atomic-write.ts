/**
 * Atomic file replacement for the tools that change files: the new content goes to a temporary
 * file beside the target, then replaces it with one rename, so an abort, a crash or a full disk
 * never leaves a half-written file. Keeps the file's mode and writes through symlinks.
 */
import { randomBytes } from "node:crypto";
import { chmod, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Replaces (or creates) `path` with `data` atomically. Rejects with the underlying error; never leaves the temp file behind. */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const target = await realpath(path).catch(() => path);
  const mode = await stat(target).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const temp = join(dirname(target), `.${basename(target)}.ink-${randomBytes(4).toString("hex")}.tmp`);
  try {
    await writeFile(temp, data, { flag: "wx" });
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
