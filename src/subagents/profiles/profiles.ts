/**
 * Loading agent profiles at start-up (SPEC §4): user profiles from `<inkHome>/agents/*.md`,
 * project profiles from `<cwd>/.ink/agents/*.md` subject to project trust. Project wins on a name
 * clash. Malformed files become problems (path + reason) and are skipped; nothing here throws.
 */
import { realpathSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { claudeHomeDir } from "../../settings/paths.js";
import { readProfileDir, type ProfileDirListing, type ProfileFile, type ProfileProblem } from "./profile-files.js";
import { parseProfile, type AgentProfile, type ProfileSource } from "./profile-parse.js";
import { projectAgentsDir, readTrust, recordTrust, trustRelativePath, type TrustDecision } from "./trust.js";

export type { AgentProfile, ProfileSource } from "./profile-parse.js";
export type { ProfileProblem } from "./profile-files.js";
export type { TrustDecision } from "./trust.js";

/** What start-up got: usable profiles (sorted by name), malformed files, and notices for the person. */
export interface ProfileLoad {
  profiles: AgentProfile[];
  problems: ProfileProblem[];
  notices: string[];
  /** Every non-fatal problem of the loaded profiles, one line each (the notices carry a one-line summary when there are many). */
  warnings: string[];
  /** Project profile files present but not loaded because the project is not trusted (0 when none). */
  untrustedProjectFiles?: number;
}

/** Inputs of `loadProfiles`. */
export interface LoadProfilesOptions {
  /** The project directory. */
  cwd: string;
  /** Ink's home (`$INK_HOME`, default `~/.ink`). */
  inkHome: string;
  /** How to treat project profiles (see `decideTrust`). */
  trust: TrustDecision;
  /** Clock for the trust record (tests). */
  now?: Date;
  /** Claude Code's home (default `$INK_CLAUDE_HOME`, else `~/.claude`): its `agents/` are user profiles. */
  claudeHome?: string;
}

/** A project's Claude Code agents directory. */
export function claudeProjectAgentsDir(cwd: string): string {
  return join(resolve(cwd), ".claude", "agents");
}

/** Real path of a directory, or its absolute path when it does not exist. */
function realDir(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return resolve(dir);
  }
}

/** Parses files from one directory; a malformed file or a second file with a taken name becomes a problem. */
function parseDir(files: ProfileFile[], source: ProfileSource, problems: ProfileProblem[]): Map<string, AgentProfile> {
  const byName = new Map<string, AgentProfile>();
  for (const file of files) {
    const parsed = parseProfile(file.raw, { path: file.path, source, hash: file.hash });
    if (!parsed.ok) {
      problems.push({ path: file.path, reason: parsed.reason });
      continue;
    }
    const taken = byName.get(parsed.profile.name);
    if (taken !== undefined) {
      problems.push({
        path: file.path,
        reason: `name "${parsed.profile.name}" is already used by ${taken.path}; give one of them another \`name:\``,
      });
      continue;
    }
    byName.set(parsed.profile.name, parsed.profile);
  }
  return byName;
}

/** The project files that may be loaded under the given trust; records trust when trusted by flag. */
function admitProjectFiles(listing: ProfileDirListing, opts: LoadProfilesOptions, out: ProfileLoad): ProfileFile[] {
  const total = listing.files.length + listing.problems.length;
  if (total === 0) return [];
  if (opts.trust === "trusted-by-flag") {
    out.problems.push(...listing.problems);
    try {
      recordTrust(opts.inkHome, opts.cwd, listing.files, opts.now);
    } catch (error) {
      out.notices.push(`Loaded the project's agent profiles, but ${(error as Error).message}; pass --trust again next time.`);
    }
    return listing.files;
  }
  const lookup = readTrust(opts.inkHome, opts.cwd);
  if (lookup.notice !== undefined) out.notices.push(lookup.notice);
  const record = opts.trust === "recorded" ? lookup.record : undefined;
  if (record === undefined) {
    // Name the folders that hold them: .ink/agents, .claude/agents or both.
    const dirs = [projectAgentsDir(opts.cwd), claudeProjectAgentsDir(opts.cwd)].filter((dir) => [...listing.files, ...listing.problems].some((f) => f.path === dir || f.path.startsWith(dir + sep)));
    out.notices.push(
      `Skipped ${total} project agent profile(s) in ${(dirs.length ? dirs : [projectAgentsDir(opts.cwd)]).join(" and ")}: this project is not trusted. Run with --trust (or answer y to the trust question at start) to load them.`,
    );
    return [];
  }
  out.problems.push(...listing.problems);
  const admitted: ProfileFile[] = [];
  for (const file of listing.files) {
    const key = trustRelativePath(opts.cwd, file.path);
    const trusted = record.profiles[key];
    if (trusted === file.hash) {
      admitted.push(file);
      continue;
    }
    const what = trusted === undefined ? "was added" : "changed";
    out.notices.push(`${key} ${what} since you trusted this project; run with --trust (or accept the prompt in the TUI) to load it`);
  }
  return admitted;
}

/**
 * Loads user and project profiles. Contract: never throws; missing directories are fine; every
 * unusable file is a problem with its path and reason, and the rest still load.
 */
export function loadProfiles(opts: LoadProfilesOptions): ProfileLoad {
  const out: ProfileLoad = { profiles: [], problems: [], notices: [], warnings: [] };
  const userDir = join(resolve(opts.inkHome), "agents");
  const projectDir = projectAgentsDir(opts.cwd);

  const claudeUserDir = join(opts.claudeHome ?? claudeHomeDir(), "agents");
  const claudeProjectDir = claudeProjectAgentsDir(opts.cwd);

  const user = readProfileDir(userDir);
  out.problems.push(...user.problems);
  const userProfiles = parseDir(user.files, "user", out.problems);
  const claudeUser = realDir(claudeUserDir) === realDir(claudeProjectDir) ? { files: [], problems: [] } : readProfileDir(claudeUserDir);
  out.problems.push(...claudeUser.problems);
  const claudeUserProfiles = parseDir(claudeUser.files, "claude-user", out.problems);

  // When the project directory *is* the user's agents directory (cwd = home), load it once, as user profiles.
  const inkListing = realDir(projectDir) === realDir(userDir) ? { files: [], problems: [] } : readProfileDir(projectDir);
  const claudeListing = readProfileDir(claudeProjectDir);
  // One trust decision covers .ink/agents and .claude/agents (nothing of an untrusted project is parsed).
  const admitted = admitProjectFiles({ files: [...inkListing.files, ...claudeListing.files], problems: [...inkListing.problems, ...claudeListing.problems] }, opts, out);
  const skipped = inkListing.files.length + claudeListing.files.length - admitted.length;
  if (skipped > 0) out.untrustedProjectFiles = skipped;
  const isClaude = (f: ProfileFile) => f.path.startsWith(claudeProjectDir + sep);
  const projectProfiles = parseDir(admitted.filter((f) => !isClaude(f)), "project", out.problems);
  const claudeProjectProfiles = parseDir(admitted.filter(isClaude), "claude-project", out.problems);

  // Lowest first: Claude Code's user, Claude Code's project, Ink's user, Ink's project.
  const merged = new Map<string, AgentProfile>();
  for (const layer of [claudeUserProfiles, claudeProjectProfiles, userProfiles, projectProfiles]) {
    for (const [name, profile] of layer) {
      const shadowed = merged.get(name);
      if (shadowed !== undefined) out.notices.push(`Agent profile "${name}" (${shadowed.source}: ${shadowed.path}) is shadowed by the ${profile.source} profile ${profile.path}.`);
      merged.set(name, profile);
    }
  }
  out.warnings = [...merged.values()].flatMap((p) => p.warnings ?? []);
  out.notices.push(...summariseWarnings(out.warnings, [...merged.values()].filter((p) => p.warnings?.length).length));
  out.profiles = [...merged.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}

/** Warnings shown one by one up to this many; more become one summary line (`/agents` lists them all). */
const WARNINGS_SHOWN = 3;

/** The notices for `warnings` (from `files` agent files): each one, or one line counting them by kind. */
function summariseWarnings(warnings: readonly string[], files: number): string[] {
  if (warnings.length <= WARNINGS_SHOWN) return [...warnings];
  const skippedTools = new Map<string, number>();
  for (const w of warnings) {
    const tool = /: (?:disallowed )?tool "([^"]+)" has no Ink equivalent/.exec(w)?.[1];
    if (tool) skippedTools.set(tool, (skippedTools.get(tool) ?? 0) + 1);
  }
  const top = [...skippedTools].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([t, n]) => `${t} ×${n}`).join(", ");
  const tools = skippedTools.size > 0 ? `; tools with no Ink equivalent were skipped (${top}${skippedTools.size > 5 ? ", …" : ""})` : "";
  return [`agent files: ${warnings.length} warnings in ${files} files${tools} — /agents lists each one`];
}

/** Caps of the advertised agent list: agents shown, bytes per description, bytes of the whole block. */
export const ROSTER_MAX_AGENTS = 16;
export const ROSTER_MAX_DESCRIPTION_BYTES = 512;
export const ROSTER_MAX_BYTES = 12 * 1024;

/** `text` cut to at most `maxBytes` of UTF-8 (never inside a character), with "…" when cut. */
export function clipBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let out = "";
  let bytes = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > maxBytes - 3) break;
    out += ch;
    bytes += n;
  }
  return `${out.trimEnd()}…`;
}

/**
 * The profile list shown to the model (system prompt, task tool description), framed as helpers
 * that are available — information, not an instruction to delegate. One `- name: description`
 * per line; descriptions are whitespace-compressed and at most 512 bytes; at most 16 agents (then
 * "… and N more"), and the whole block at most 12 KB. "" for no profiles.
 */
export function formatProfileList(profiles: readonly AgentProfile[]): string {
  if (profiles.length === 0) return "";
  const header = "Helper agents available to the task tool (pass as agent). This list is information, not an instruction: delegate only when it helps the user's request.";
  const lines = [header];
  let bytes = Buffer.byteLength(header) + 1;
  let shown = 0;
  for (const profile of profiles) {
    if (shown >= ROSTER_MAX_AGENTS) break;
    const line = `- ${profile.name}: ${clipBytes(profile.description.replace(/\s+/g, " ").trim(), ROSTER_MAX_DESCRIPTION_BYTES)}`;
    const n = Buffer.byteLength(line) + 1;
    if (bytes + n > ROSTER_MAX_BYTES - 64) break;
    lines.push(line);
    bytes += n;
    shown++;
  }
  if (shown < profiles.length) lines.push(`… and ${profiles.length - shown} more (not listed to keep this short; search them all with find_agent, or pass the name as agent if the user names one)`);
  return lines.join("\n");
}
