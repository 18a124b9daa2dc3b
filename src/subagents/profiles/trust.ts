/**
 * Project trust (SPEC §4): project agent profiles are only loaded from a directory the person has
 * trusted. Trust is remembered in `<inkHome>/trust.json`, keyed by the project's real path, with
 * the sha256 of every profile file at the time, so an edited or added profile needs trust again:
 *
 *   { "/abs/project": { "trustedAt": "2025-01-01T00:00:00.000Z", "profiles": { ".ink/agents/scout.md": "<sha256>" } } }
 */
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { readProfileDir, sha256 } from "./profile-files.js";

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
  /** Every gated file (profiles, settings, commands, .claude/agents and commands, skills, .mcp.json) → sha256. */
  files?: Record<string, string>;
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

const recordSchema = z.object({ trustedAt: z.string(), profiles: z.record(z.string(), z.string()), files: z.record(z.string(), z.string()).optional() });
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
  // Every gated file is recorded too, so a changed settings.json or .mcp.json asks again.
  const all: Record<string, string> = {};
  for (const rel of gatedProjectFiles(dir)) all[rel] = hashOf(resolve(dir), rel);
  const record: TrustRecord = { trustedAt: now.toISOString(), profiles, files: { ...all, ...profiles } };
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

/** The project's trust state: whether every gated file matches the recorded trust. */
export interface ProjectTrust {
  /** A trust record exists and every gated file is unchanged since. */
  trusted: boolean;
  /** Gated files present now, relative to the project (for the trust question). */
  gatedFiles: string[];
  /** Gated files added, edited or removed since trust was recorded (all of them when never trusted). */
  changed: string[];
}

/** Relative paths of every file that acts only in a trusted project. Lists names; parses nothing. Never throws. */
export function gatedProjectFiles(cwd: string): string[] {
  const root = resolve(cwd);
  const list = (rel: string, recursive: boolean, filter: (n: string) => boolean): string[] => {
    let names: string[];
    try {
      names = readdirSync(join(root, rel));
    } catch {
      return [];
    }
    return names.sort().flatMap((n) => {
      const child = `${rel}/${n}`;
      try {
        const st = statSync(join(root, child));
        if (st.isDirectory()) return recursive ? list(child, true, filter) : [];
        return st.isFile() && filter(n) ? [child] : [];
      } catch {
        return [];
      }
    });
  };
  const single = (rel: string) => {
    try {
      return statSync(join(root, rel)).isFile() ? [rel] : [];
    } catch {
      return [];
    }
  };
  const md = (n: string) => n.endsWith(".md") && !n.startsWith(".");
  // Skills: each `<root>/<folder>/SKILL.md` (the files beside it are only read when the model chooses to).
  const skills = (rel: string) => listSkillFiles(root, rel);
  return [
    ...list(".ink/agents", true, md),
    ...single(".ink/settings.json"),
    ...list(".ink/commands", true, () => true),
    ...list(".claude/agents", true, md),
    ...list(".claude/commands", true, md),
    ...skills(".ink/skills"),
    ...skills(".claude/skills"),
    ...skills(".agents/skills"),
    ...single(".mcp.json"),
    ...single(".claude/settings.json"),
    ...single(".claude/settings.local.json"),
  ];
}

/** `<rel>/<folder>/SKILL.md` paths under the project `root`, sorted. Never throws. */
function listSkillFiles(root: string, rel: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(root, rel)).filter((n) => !n.startsWith(".")).sort();
  } catch {
    return [];
  }
  return names.map((n) => `${rel}/${n}/SKILL.md`).filter((f) => {
    try {
      return statSync(join(root, f)).isFile();
    } catch {
      return false;
    }
  });
}

function hashOf(root: string, rel: string): string {
  try {
    return sha256(readFileSync(join(root, rel)));
  } catch {
    return "";
  }
}

/** Whether the project at `cwd` (keyed by its real path) is trusted as it is now. Never throws. */
export function projectTrust(inkHome: string, cwd: string): ProjectTrust {
  const gatedFiles = gatedProjectFiles(cwd);
  const record = readTrust(inkHome, cwd).record;
  if (!record) return { trusted: false, gatedFiles, changed: gatedFiles };
  const root = resolve(cwd);
  const recorded = record.files ?? record.profiles;
  const changed = gatedFiles.filter((f) => recorded[f] !== hashOf(root, f));
  for (const f of Object.keys(recorded)) if (!gatedFiles.includes(f)) changed.push(f);
  return { trusted: changed.length === 0, gatedFiles, changed };
}

/** Records trust for the project as it is now: the hash of every gated file. Throws naming trust.json when it cannot be written. */
export function recordProjectTrust(inkHome: string, cwd: string, now: Date = new Date()): TrustRecord {
  const root = resolve(cwd);
  return recordTrust(inkHome, cwd, gatedProjectFiles(cwd).map((f) => ({ path: join(root, f), hash: hashOf(root, f) })), now);
}
