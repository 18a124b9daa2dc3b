/**
 * Keeps secrets out of Ink's own `/proc/<pid>/environ`: a tool's process (same user) could read
 * the API key there even though its own environment lacks it. On Linux the key is first moved to
 * a heap copy (`process.env` keeps working), then its bytes in the process's original
 * environment block are overwritten through `/proc/self/mem`. Best effort: elsewhere, or when the
 * kernel refuses, nothing changes and the bash line checks still stand.
 */
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { SECRET } from "./tool-env.js";

/** Masks the values of secret-looking variables in this process's environment block; returns the names masked. Never throws. */
export function scrubOwnEnviron(isSecret: (name: string) => boolean = (n) => SECRET.test(n)): string[] {
  let block: Buffer;
  let envStart: number;
  try {
    block = readFileSync("/proc/self/environ");
    const stat = readFileSync("/proc/self/stat", "latin1");
    envStart = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[50 - 3]);
    if (!Number.isSafeInteger(envStart) || envStart <= 0) return [];
  } catch {
    return [];
  }
  const masked: string[] = [];
  let fd: number | undefined;
  try {
    let offset = 0;
    while (offset < block.length) {
      let end = block.indexOf(0, offset);
      if (end < 0) end = block.length;
      const entry = block.subarray(offset, end).toString("latin1");
      const eq = entry.indexOf("=");
      const name = eq > 0 ? entry.slice(0, eq) : "";
      const value = process.env[name];
      if (name && isSecret(name) && value !== undefined && end - offset > eq + 1) {
        // A fresh copy first (setenv allocates it), so the block's bytes are no longer what getenv returns.
        delete process.env[name];
        process.env[name] = value;
        fd ??= openSync("/proc/self/mem", "r+");
        writeSync(fd, Buffer.alloc(end - offset - eq - 1, "*"), 0, end - offset - eq - 1, envStart + offset + eq + 1);
        masked.push(name);
      }
      offset = end + 1;
    }
  } catch {
    // kernel or sandbox refuses: keep what was done
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return masked;
}
