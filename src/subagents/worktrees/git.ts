/**
 * A tiny promisified `git` runner: always `execFile("git", args)` (never a shell string), with a
 * working directory, an optional AbortSignal and failures turned into a typed `GitError`.
 */
import { execFile } from "node:child_process";
import { statSync } from "node:fs";
import { devNull } from "node:os";

/** Output of a successful git command. */
export interface GitResult {
  stdout: string;
  stderr: string;
}

/** Options for one git invocation. */
export interface GitOptions {
  cwd: string;
  signal?: AbortSignal;
  /** Extra environment variables, merged over the sanitized process environment. */
  env?: Record<string, string>;
}

/** Why a git command failed: non-zero exit (`exitCode`), aborted, or git/cwd missing. */
export class GitError extends Error {
  override name = "GitError";
  constructor(
    message: string,
    readonly args: readonly string[],
    readonly cwd: string,
    readonly exitCode: number | null,
    readonly stderr: string,
    readonly aborted: boolean,
    /** What the command printed on stdout before it failed (`git merge` names its conflicts there). */
    readonly stdout = "",
  ) {
    super(message);
  }
}

/**
 * Variables that would redirect git away from `cwd` (set e.g. when Ink runs inside a git hook).
 * They are removed so every command operates on the repository found from its working directory.
 */
const REDIRECTING_VARS = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_COMMON_DIR"];

function gitEnv(extra?: Record<string, string>, overrides: readonly (readonly [string, string])[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REDIRECTING_VARS) delete env[name];
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_CONFIG_NOSYSTEM = "1";
  const merged: NodeJS.ProcessEnv = { ...env, ...extra };
  if (overrides.length === 0) return merged;
  // Passed as GIT_CONFIG_KEY_n/VALUE_n, not `-c key=value`: `-c` splits at the first "=", so a
  // driver named `a=b` (`[filter "a=b"]`) could not be overridden that way. Any pairs the caller's
  // environment already holds are kept, ours come after them (and so win).
  const had = Number(merged.GIT_CONFIG_COUNT ?? "0");
  const base = Number.isInteger(had) && had > 0 ? had : 0;
  overrides.forEach(([key, value], i) => {
    merged[`GIT_CONFIG_KEY_${base + i}`] = key;
    merged[`GIT_CONFIG_VALUE_${base + i}`] = value;
  });
  merged.GIT_CONFIG_COUNT = String(base + overrides.length);
  return merged;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** First few non-empty lines of stderr, for error messages. */
function brief(stderr: string): string {
  const lines = stderr.split("\n").map((l) => l.trim()).filter(Boolean);
  return lines.slice(0, 3).join("; ");
}

/**
 * Options put before every command so that none of Ink's git commands runs code the repository
 * configures: no hooks (post-checkout, reference-transaction, …: the hooks path points at an empty
 * place), no fsmonitor program, no external diff driver or textconv filter, no pager.
 */
export const HARDENED_GIT_OPTIONS: readonly string[] = [
  "-c", `core.hooksPath=${devNull}`,
  "-c", "core.fsmonitor=false",
  "-c", "core.pager=cat",
  "-c", "diff.external=",
  "--no-pager",
];

/** Per-driver keys that name a program the repository's config could define. */
const DRIVER_PROGRAM_KEYS: Record<string, readonly string[]> = {
  filter: ["smudge", "clean", "process"],
  diff: ["command", "textconv"],
};

/** Single keys that name a program (for git itself or for a program git starts, e.g. git-lfs over ssh). */
const PROGRAM_KEYS: Record<string, string> = {
  "core.sshcommand": "ssh",
  "core.askpass": "",
};

/** Scopes whose values the repository brings along: its `.git/config` (and files it includes), a worktree's config. */
const REPOSITORY_SCOPES = new Set(["local", "worktree"]);

/**
 * Config overrides that neutralise every program the repository's own config names — its
 * `.git/config`, a worktree's config, or a file they include: content filters (a hostile
 * checkout's `.gitattributes` + `filter.<name>.smudge` would otherwise run on `worktree add`,
 * `status` or `stash`), diff drivers, `core.sshCommand`, `core.askPass` (hooks, fsmonitor and the pager
 * are off for every command: HARDENED_GIT_OPTIONS). A key
 * the user's own (global) config also sets gets the user's value back, so git-lfs installed
 * globally still runs; otherwise the key is emptied (a filter) or reset to git's default.
 * Rejects when the config cannot be read (it is never guessed to be harmless).
 */
function repositoryOverrides(cwd: string, extraEnv?: Record<string, string>): Promise<[string, string][]> {
  return new Promise((resolve, reject) => {
    execFile("git", [...HARDENED_GIT_OPTIONS, "config", "--show-scope", "--null", "--list"], { cwd, env: gitEnv(extraEnv), encoding: "utf8", maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        const code = (error as { code?: unknown }).code;
        if (code === "ENOENT") return resolve([]); // no git at all: the command itself will say so
        return reject(new GitError(`git config --list failed in ${cwd}: ${brief(stderr ?? "") || error.message}; Ink reads the repository's config to switch off the programs it names, fix the config file git names`, ["config", "--list"], cwd, typeof code === "number" ? code : null, stderr ?? "", false));
      }
      // --null: "scope\0key\nvalue\0" per entry (a key without "=" has no "\nvalue").
      const parts = stdout.split("\0");
      const user = new Map<string, string>();
      const fromRepository = new Map<string, string>(); // lower-cased key → key as git prints it
      for (let i = 0; i + 1 < parts.length; i += 2) {
        const scope = parts[i]!;
        const entry = parts[i + 1]!;
        const nl = entry.indexOf("\n");
        const key = nl < 0 ? entry : entry.slice(0, nl);
        const value = nl < 0 ? "" : entry.slice(nl + 1);
        const dangerous = programKey(key);
        if (!dangerous) continue;
        if (REPOSITORY_SCOPES.has(scope)) fromRepository.set(dangerous.id, key);
        else if (scope !== "command") user.set(dangerous.id, value);
      }
      const out: [string, string][] = [];
      for (const [id, key] of fromRepository) {
        const known = programKey(key)!;
        out.push([key, user.get(id) ?? known.neutral]);
        if (known.driver && known.section === "filter" && !user.has(id)) out.push([`filter.${known.driver}.required`, "false"]);
      }
      resolve(out);
    });
  });
}

/** Whether `key` (as git prints it: section and name lower-cased, subsection verbatim) names a program, and its neutral value. */
function programKey(key: string): { id: string; neutral: string; section?: string; driver?: string } | undefined {
  const lower = key.toLowerCase();
  if (lower in PROGRAM_KEYS) return { id: lower, neutral: PROGRAM_KEYS[lower]! };
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  if (first < 0 || last <= first) return undefined;
  const section = key.slice(0, first).toLowerCase();
  const name = key.slice(last + 1).toLowerCase();
  const driver = key.slice(first + 1, last);
  if (!DRIVER_PROGRAM_KEYS[section]?.includes(name)) return undefined;
  return { id: `${section}\0${driver}\0${name}`, neutral: "", section, driver };
}

/** Subcommands that can run a diff driver or textconv filter: they get --no-ext-diff --no-textconv. */
const DIFFING = new Set(["diff", "show", "log"]);

/** `args` with the hardening options (and the no-diff-driver flags for diffing subcommands). */
export function hardenedGitArgs(args: readonly string[]): string[] {
  const [sub, ...rest] = args;
  const tail = sub !== undefined && DIFFING.has(sub) ? [sub, "--no-ext-diff", "--no-textconv", ...rest] : [...args];
  return [...HARDENED_GIT_OPTIONS, ...tail];
}

/**
 * Runs `git <args>` in `opts.cwd` (hardened: see HARDENED_GIT_OPTIONS, and the repository's own
 * programs its config names switched off: repositoryOverrides). Resolves with stdout/stderr on exit code 0; rejects with a
 * `GitError` otherwise (non-zero exit, abort via `opts.signal`, git not installed, cwd missing).
 */
export async function runGit(args: readonly string[], opts: GitOptions): Promise<GitResult> {
  const shown = `git ${args.join(" ")}`;
  const overrides = isDirectory(opts.cwd) ? await repositoryOverrides(opts.cwd, opts.env) : [];
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      hardenedGitArgs(args),
      { cwd: opts.cwd, signal: opts.signal, env: gitEnv(opts.env, overrides), maxBuffer: 64 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (!error) {
          resolve({ stdout, stderr });
          return;
        }
        const err = error as NodeJS.ErrnoException & { code?: unknown };
        if (err.name === "AbortError" || opts.signal?.aborted) {
          reject(new GitError(`${shown} was aborted`, args, opts.cwd, null, stderr ?? "", true));
        } else if (err.code === "ENOENT") {
          const message = isDirectory(opts.cwd)
            ? `${shown} failed: git is not installed or not on PATH`
            : `${shown} failed: directory ${opts.cwd} does not exist`;
          reject(new GitError(message, args, opts.cwd, null, "", false));
        } else {
          const exitCode = typeof err.code === "number" ? err.code : null;
          const detail = brief(stderr ?? "") || err.message;
          reject(new GitError(`${shown} failed in ${opts.cwd} (exit ${exitCode ?? "?"}): ${detail}`, args, opts.cwd, exitCode, stderr ?? "", false, stdout ?? ""));
        }
      },
    );
  });
}
