/**
 * Atomic file replacement for the tools that change files: the new content goes to a temporary
 * file beside the target, then replaces it with one rename, so an abort, a crash or a full disk
 * never leaves a half-written file. Keeps the file's mode and writes through symlinks.
 */
import { randomBytes } from "node:crypto";
import { access, chmod, constants, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Replaces (or creates) `path` with `data` atomically. Rejects with the underlying error; never leaves the temp file behind. */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const target = await realpath(path).catch(() => path);
  const info = await stat(target).catch(() => undefined);
  const mode = info ? info.mode & 0o7777 : undefined;
  if (info) {
    // A read-only file is refused like the shell would — and one nobody may write (no w bit) even
    // for root, who the shell would let through; a hard-linked file is changed in place so every link sees it.
    const writable = (mode! & 0o222) !== 0 && (await access(target, constants.W_OK).then(() => true, () => false));
    if (!writable) throw Object.assign(new Error(`${target} is read-only (mode ${mode!.toString(8)}); change its permissions first if it should be edited`), { code: "EACCES" });
    if (info.nlink > 1) {
      await writeFile(target, data);
      return;
    }
  }
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
