/**
 * Project trust (SPEC §4): project agent profiles are only loaded from a directory the person has
 * trusted. Trust is remembered in `<inkHome>/trust.json`, keyed by the project's real path, with
 * the sha256 of every profile file at the time, so an edited or added profile needs trust again:
 *
 *   { "/abs/project": { "trustedAt": "2025-01-01T00:00:00.000Z", "profiles": { ".ink/agents/scout.md": "<sha256>" } } }
 */
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { readProfileDir } from "./profile-files.js";

/**
 * How project profiles are treated at start-up:
 * - "trusted-by-flag": headless `--trust` (or an accepted TUI prompt): load them all and record their hashes;
 * - "recorded": load only those whose hash matches the recorded trust;
 * - "untrusted": load none (one notice says how to trust).
 */
export type TrustDecision = "trusted-by-flag" | "recorded" | "untrusted";

/** What was trusted for one directory. */
export interface TrustRecord {
  trustedAt: string;
  /** Profile path relative to the project directory (forward slashes) → sha256. */
  profiles: Record<string, string>;
}

/** The trust recorded for a directory, plus a notice when trust.json could not be used. */
export interface TrustLookup {
  record?: TrustRecord;
  notice?: string;
}

/** A profile file to trust: its path (absolute, or relative to the project dir) and hash. */
export interface TrustedFile {
  path: string;
  hash: string;
}

const recordSchema = z.object({ trustedAt: z.string(), profiles: z.record(z.string(), z.string()) });
const storeSchema = z.record(z.string(), z.unknown());
type TrustStore = z.infer<typeof storeSchema>;

/** Path of the trust store. */
export function trustFilePath(inkHome: string): string {
  return join(inkHome, "trust.json");
}

/** The key of a project directory: its real path, or its absolute path when it does not exist. */
export function trustKey(dir: string): string {
  try {
    return realpathSync.native(resolve(dir));
  } catch {
    return resolve(dir);
  }
}

/** Directory holding a project's agent profiles. */
export function projectAgentsDir(cwd: string): string {
  return join(resolve(cwd), ".ink", "agents");
}

/** A profile path as stored in a record: relative to the project dir, with forward slashes. */
export function trustRelativePath(dir: string, path: string): string {
  const absolute = isAbsolute(path) ? path : resolve(dir, path);
  return relative(resolve(dir), absolute).split(sep).join("/");
}

/** Reads the whole store; a missing file is empty, an unusable one is empty plus a notice. */
function readStore(inkHome: string): { store: TrustStore; notice?: string } {
  const file = trustFilePath(inkHome);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { store: {} };
    return { store: {}, notice: `Ignoring ${file}: cannot read it (${(error as Error).message}); project trust is treated as not given.` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      store: {},
      notice: `Ignoring ${file}: it is not valid JSON (${(error as Error).message}); project trust is treated as not given. Delete the file or run with --trust to rewrite it.`,
    };
  }
  const parsed = storeSchema.safeParse(json);
  if (!parsed.success) {
    return {
      store: {},
      notice: `Ignoring ${file}: it is not an object of trusted directories; project trust is treated as not given. Delete the file or run with --trust to rewrite it.`,
    };
  }
  return { store: parsed.data };
}

/** The trust recorded for `dir`. Contract: never throws; problems with trust.json come back as a notice. */
export function readTrust(inkHome: string, dir: string): TrustLookup {
  const { store, notice } = readStore(inkHome);
  const key = trustKey(dir);
  const entry = store[key];
  if (entry === undefined) return notice === undefined ? {} : { notice };
  const parsed = recordSchema.safeParse(entry);
  if (!parsed.success) {
    return { notice: `Ignoring the trust entry for ${key} in ${trustFilePath(inkHome)}: it is malformed. Run with --trust to record it again.` };
  }
  return { record: parsed.data };
}

/**
 * Records that `dir` is trusted with exactly these profile files (replacing any earlier record for
 * it; other directories are kept). The write is atomic (temp file + rename). Throws an Error
 * naming the file when it cannot be written.
 */
export function recordTrust(inkHome: string, dir: string, files: TrustedFile[], now: Date = new Date()): TrustRecord {
  const file = trustFilePath(inkHome);
  const { store } = readStore(inkHome);
  const profiles: Record<string, string> = {};
  for (const item of files) profiles[trustRelativePath(dir, item.path)] = item.hash;
  const record: TrustRecord = { trustedAt: now.toISOString(), profiles };
  store[trustKey(dir)] = record;
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(inkHome, { recursive: true });
    writeFileSync(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, file);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // the temp file is harmless; the write error below is what matters
    }
    throw new Error(`cannot record project trust in ${file}: ${(error as Error).message}`);
  }
  return record;
}

/** The decision for start-up: the flag wins, then a recorded trust, else untrusted. Contract: never throws. */
export function decideTrust(opts: { inkHome: string; cwd: string; flag: boolean }): TrustDecision {
  if (opts.flag) return "trusted-by-flag";
  return readTrust(opts.inkHome, opts.cwd).record === undefined ? "untrusted" : "recorded";
}

/** The project's profile files with their hashes, e.g. for a "trust these N profiles?" prompt. Never throws. */
export function projectProfileFiles(cwd: string): TrustedFile[] {
  return readProfileDir(projectAgentsDir(cwd)).files.map(({ path, hash }) => ({ path, hash }));
}

/**
 * Project profile files that the recorded trust does not cover (new, edited, or all of them when
 * the project was never trusted): what an interactive "trust this project?" prompt asks about.
 * Empty when there are none. Never throws.
 */
export function untrustedProjectProfiles(inkHome: string, cwd: string): TrustedFile[] {
  const files = projectProfileFiles(cwd);
  if (files.length === 0) return [];
  const recorded = readTrust(inkHome, cwd).record?.profiles ?? {};
  return files.filter((f) => recorded[trustRelativePath(cwd, f.path)] !== f.hash);
}
