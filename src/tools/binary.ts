/** Binary-file sniffing: a file is treated as binary if its first bytes hold a NUL or invalid UTF-8. */
import { open } from "node:fs/promises";

/** How many leading bytes are inspected. */
export const SNIFF_BYTES = 8192;

/** True when `sample` contains a NUL byte or is not valid UTF-8 (a sequence cut at the end is fine). */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(sample, { stream: true });
    return false;
  } catch {
    return true;
  }
}

/** Reads the first `SNIFF_BYTES` of `path` and applies `looksBinary`. Throws if unreadable. */
export async function fileLooksBinary(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return looksBinary(buf.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
