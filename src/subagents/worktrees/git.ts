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
  ) {
    super(message);
  }
}

/**
 * Variables that would redirect git away from `cwd` (set e.g. when Ink runs inside a git hook).
 * They are removed so every command operates on the repository found from its working directory.
 */
const REDIRECTING_VARS = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_COMMON_DIR"];

function gitEnv(extra?: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REDIRECTING_VARS) delete env[name];
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_CONFIG_NOSYSTEM = "1";
  return { ...env, ...extra };
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

/** The filter keys that name a program (or make a missing one fatal). */
const FILTER_KEYS = ["smudge", "clean", "process"];

/**
 * `-c` options that switch off every content filter the repository itself configures (its
 * `.git/config`, a worktree's config, or a file they include): a hostile checkout's
 * `.gitattributes` + `filter.<name>.smudge` would otherwise run a program on `worktree add`,
 * `status` or `stash`. Filters from the user's own (global) config — git-lfs, say — still run.
 */
function localFilterOverrides(cwd: string): Promise<string[]> {
  return new Promise((resolve) => {
    execFile("git", [...HARDENED_GIT_OPTIONS, "config", "--show-scope", "--get-regexp", "^filter\\."], { cwd, env: gitEnv(), encoding: "utf8" }, (error, stdout) => {
      if (error && !stdout) return resolve([]); // no filter configured (exit 1), or not a repository
      const drivers = new Set<string>();
      for (const line of stdout.split("\n")) {
        const m = /^(local|worktree)\tfilter\.(.+)\.([^.\s]+)( |$)/.exec(line);
        if (m) drivers.add(m[2]!);
      }
      resolve([...drivers].flatMap((d) => [...FILTER_KEYS.flatMap((k) => ["-c", `filter.${d}.${k}=`]), "-c", `filter.${d}.required=false`]));
    });
  });
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
 * content filters switched off: localFilterOverrides). Resolves with stdout/stderr on exit code 0; rejects with a
 * `GitError` otherwise (non-zero exit, abort via `opts.signal`, git not installed, cwd missing).
 */
export async function runGit(args: readonly string[], opts: GitOptions): Promise<GitResult> {
  const shown = `git ${args.join(" ")}`;
  const filters = isDirectory(opts.cwd) ? await localFilterOverrides(opts.cwd) : [];
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      [...filters, ...hardenedGitArgs(args)],
      { cwd: opts.cwd, signal: opts.signal, env: gitEnv(opts.env), maxBuffer: 64 * 1024 * 1024, encoding: "utf8" },
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
          reject(new GitError(`${shown} failed in ${opts.cwd} (exit ${exitCode ?? "?"}): ${detail}`, args, opts.cwd, exitCode, stderr ?? "", false));
        }
      },
    );
  });
}
