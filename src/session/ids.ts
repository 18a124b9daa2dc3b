/**
 * Session ids: time-sortable, short and filesystem-safe, e.g. `20261202-142301-ab12cd`
 * (UTC date and time of creation, then 6 random hex digits).
 */
import { randomBytes } from "node:crypto";

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A new session id for `date` (default now). Ids created in different seconds sort by time. */
export function newSessionId(date: Date = new Date()): string {
  const iso = date.toISOString(); // 2026-12-02T14:23:01.123Z
  const day = iso.slice(0, 10).replaceAll("-", "");
  const time = iso.slice(11, 19).replaceAll(":", "");
  return `${day}-${time}-${randomBytes(3).toString("hex")}`;
}

/**
 * The distinctive tail of a session id (`20261202-142301-ab12cd` → `ab12cd`): how every line a
 * person reads names a session or a child; the full id only where it is to be typed.
 */
export function shortId(id: string): string {
  const parts = id.split("-");
  const last = parts[parts.length - 1] ?? id;
  return last.length >= 4 ? last : id.slice(-8);
}

/** True when `id` can safely name a file: letters, digits, `.`, `_`, `-`, no leading dot, no `..`. */
export function isSafeSessionId(id: string): boolean {
  return SAFE_ID.test(id) && !id.includes("..");
}

/** Throws a clear error when `id` is not a usable session id. */
export function assertSessionId(id: string): void {
  if (!isSafeSessionId(id)) {
    throw new Error(
      `invalid session id ${JSON.stringify(id)}: use letters, digits, ".", "_" and "-" only (e.g. 20261202-142301-ab12cd)`,
    );
  }
}
