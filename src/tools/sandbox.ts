/**
 * Where `bash` runs: in its own PID and mount namespace when the system allows one (bubblewrap,
 * else util-linux `unshare` — as root directly, as a normal user inside a user namespace), so a
 * command sees only its own processes in /proc: no other process's environment (the parent shell's
 * API key), whatever path spelling or glob reaches it. Everything a command starts stays in the
 * namespace, even after `setsid` and a cleared environment, and dies with it. The filesystem and
 * network are the host's (the working tree, git and npm work as before) — except for unattended
 * calls, which bubblewrap confines (see `boundaryFor`, `confinedPrefix`). Elsewhere, or when the
 * kernel refuses, commands run unsandboxed and only the permission layer's secret-path check and
 * Ink's masked own environment protect the key. `INK_BASH_SANDBOX=off` turns the sandbox off;
 * `INK_BASH_SANDBOX=unshare` skips bubblewrap.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

/** The protection `bash` runs under. */
export interface BashSandbox {
  kind: "bwrap" | "unshare" | "none";
  /** argv put before `<shell> -c …` (empty when unsandboxed). */
  prefix: readonly string[];
  /** One line for the person: what protects bash here (start-up notice, `ink config`). */
  summary: string;
}

const BWRAP = ["bwrap", "--dev-bind", "/", "/", "--unshare-pid", "--proc", "/proc", "--die-with-parent", "--"];
const UNSHARE = ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child"];
const UNSHARE_USER = ["unshare", "--user", "--map-current-user", "--pid", "--fork", "--mount-proc", "--kill-child"];

/**
 * Runs the command as a child, reports its exit status (and whether anything else still runs) on fd 3 once it ends, then stays (keeping
 * the namespace, hence background jobs, alive) until nothing else runs in the namespace. A TERM,
 * INT or HUP is passed to every process in the namespace. `$1` = command, `$2` = shell.
 */
export const SANDBOX_WRAPPER = [
  "trap 'kill -TERM -1 2>/dev/null' TERM INT HUP",
  '"$2" -c "$1" 3>&- &',
  "c=$!",
  "wait $c; s=$?",
  "while kill -0 $c 2>/dev/null; do wait $c; s=$?; done",
  "exec >/dev/null 2>&1 </dev/null",
  // "<status> 1" when something else still runs in the namespace, "<status> 0" when the namespace ends now.
  'if kill -0 -1 2>/dev/null; then echo "$s 1" >&3; else echo "$s 0" >&3; fi',
  "exec 3>&-",
  "while kill -0 -1 2>/dev/null; do sleep 0.2; done",
].join("\n");

/** No sandbox (tests of the fallback path; `INK_BASH_SANDBOX=off`). */
export const NO_SANDBOX: BashSandbox = { kind: "none", prefix: [], summary: "bash sandbox: none" };

/** The wrapper's `$0` (it marks the namespace's own processes, which carry the call's tag too). */
export const WRAPPER_NAME = "ink-bash-sandbox";

let cached: BashSandbox | undefined;

/** The sandbox available here, probed once per process (a few ms); `INK_BASH_SANDBOX=off` forces none. */
export function bashSandbox(env: NodeJS.ProcessEnv = process.env): BashSandbox {
  if (cached) return cached;
  cached = probe(env);
  return cached;
}

/** Forgets the probe (tests that change INK_BASH_SANDBOX). */
export function resetBashSandbox(): void {
  cached = undefined;
  confinable = null;
}

function probe(env: NodeJS.ProcessEnv): BashSandbox {
  const fallback = (why: string): BashSandbox => ({
    kind: "none",
    prefix: [],
    summary: `bash sandbox: none (${why}) — commands can see other processes; only the secret-path check on commands and Ink's masked environment guard the API key`,
  });
  if (env.INK_BASH_SANDBOX === "off") return fallback("INK_BASH_SANDBOX=off");
  if (process.platform !== "linux") return fallback(`no PID namespaces on ${process.platform}`);
  const candidates: Array<[BashSandbox["kind"], readonly string[], string]> = [
    ["bwrap", BWRAP, "bubblewrap"],
    ["unshare", UNSHARE, "unshare"],
    ["unshare", UNSHARE_USER, "unshare in a user namespace"],
  ];
  const failures: string[] = [];
  for (const [kind, prefix, name] of candidates) {
    if (env.INK_BASH_SANDBOX === "unshare" && kind === "bwrap") continue;
    const r = spawnSync(prefix[0]!, [...prefix.slice(1), "true"], { stdio: ["ignore", "ignore", "pipe"], timeout: 5000 });
    if (r.status === 0) {
      return { kind, prefix, summary: `bash sandbox: ${name} — each command runs in its own PID namespace (other processes' /proc is hidden; what it starts ends with it)` };
    }
    const err = r.error ? ((r.error as NodeJS.ErrnoException).code === "ENOENT" ? "not installed" : r.error.message) : (r.stderr?.toString().trim().split("\n")[0] ?? `exit ${r.status}`);
    failures.push(`${name}: ${err || `exit ${r.status}`}`);
  }
  return fallback(failures.join("; "));
}

/**
 * The OS boundary of one bash call (see `boundaryFor`): `confine` — writes only to the working
 * directory, its repository's git data (never its hooks or config), temp dirs and the
 * `sandbox.allowWrite` paths; `network` — false: no network at all (a fresh network namespace,
 * even the host's loopback is out of reach).
 */
export interface Boundary {
  confine: boolean;
  network: boolean;
}

/** The user's `sandbox` settings: paths confined runs may also write, and whether they keep the network. */
export interface SandboxSettings {
  allowWrite?: readonly string[];
  network?: "on" | "off";
}

/** Who runs the call: the session's yolo mode, a background child, a child in its own worktree. */
export interface BoundaryRun {
  yolo: boolean;
  background?: boolean;
  worktree?: boolean;
}

/**
 * What runs unattended is confined: yolo runs (main agent and children), background children and
 * worktree children write only to their directory and temp (settings widen it); yolo runs and
 * background children get no network unless `sandbox.network` is "on". Everything else (each
 * command asked for or allowed by a rule) runs with the person's files and network, as before.
 */
export function boundaryFor(run: BoundaryRun, settings: SandboxSettings = {}): Boundary {
  const unattended = run.yolo || run.background === true;
  return { confine: unattended || run.worktree === true, network: settings.network === "on" || !unattended };
}

/** Temp dirs a confined run may write: /tmp, /var/tmp, /dev/shm and $TMPDIR (those that exist). */
export function tempDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  return [...new Set(["/tmp", "/var/tmp", "/dev/shm", tmpdir(), ...(env.TMPDIR ? [env.TMPDIR] : [])])].filter(isDir);
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `~/x` → `<home>/x`; others as given. */
export function expandHome(path: string): string {
  return path === "~" ? homedir() : path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
}

/**
 * The repository data a confined run in `cwd` must write for git to work (objects, refs, logs;
 * a linked worktree's own git dir; the index and HEAD of a repository whose `.git` lies above
 * `cwd`), and what stays read-only although inside a writable path: the common git dir's hooks and
 * config (code the person's git would run later). Paths that do not exist are left out.
 */
export function gitPaths(cwd: string): { writable: string[]; readOnly: string[] } {
  let dir = resolve(cwd);
  for (;;) {
    const dotGit = join(dir, ".git");
    let gitDir: string | undefined;
    try {
      const st = statSync(dotGit);
      if (st.isDirectory()) gitDir = dotGit;
      else if (st.isFile()) {
        const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"));
        if (m) gitDir = resolve(dir, m[1]!.trim());
      }
    } catch {
      // not here: look further up
    }
    if (gitDir) {
      let common = gitDir;
      try {
        common = resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
      } catch {
        // a main repository's git dir is its own common dir
      }
      const writable = common === gitDir ? [gitDir] : [gitDir, join(common, "objects"), join(common, "refs"), join(common, "logs")];
      return { writable: writable.filter(exists), readOnly: [join(common, "hooks"), join(common, "config")].filter(exists) };
    }
    const up = dirname(dir);
    if (up === dir) return { writable: [], readOnly: [] };
    dir = up;
  }
}

function exists(path: string): boolean {
  return existsSync(path);
}

/**
 * The bubblewrap argv (before `<shell> -c …`) of a confined call in `cwd`: the host's files
 * read-only, then the writable paths bound read-write over them, the git hooks and config bound
 * read-only again, a PID namespace and — without network — a fresh network namespace.
 */
export function confinedPrefix(cwd: string, boundary: Boundary, settings: SandboxSettings = {}, temps: readonly string[] = tempDirs()): string[] {
  const git = gitPaths(cwd);
  const writable = [...new Set([resolve(cwd), ...temps, ...(settings.allowWrite ?? []).map((p) => resolve(cwd, expandHome(p))), ...git.writable])].filter(exists);
  return [
    "bwrap",
    "--ro-bind", "/", "/",
    "--dev-bind", "/dev", "/dev",
    ...writable.flatMap((p) => ["--bind", p, p]),
    ...git.readOnly.flatMap((p) => ["--ro-bind", p, p]),
    "--unshare-pid",
    ...(boundary.network ? [] : ["--unshare-net"]),
    "--proc", "/proc",
    "--die-with-parent",
    "--",
  ];
}

let confinable: string | undefined | null = null;

/**
 * Undefined when confined calls can run here (bubblewrap may mount read-only and make a network
 * namespace), else why not (probed once per process). `INK_BASH_SANDBOX=off` / `unshare` say no.
 */
export function confinementUnavailable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (confinable !== null) return confinable;
  const sandbox = bashSandbox(env);
  if (sandbox.kind !== "bwrap") {
    confinable = env.INK_BASH_SANDBOX === "off" || env.INK_BASH_SANDBOX === "unshare" ? `INK_BASH_SANDBOX=${env.INK_BASH_SANDBOX}` : process.platform !== "linux" ? `no namespaces on ${process.platform}` : "bubblewrap (bwrap) is not installed or cannot create namespaces here";
    return confinable;
  }
  const prefix = confinedPrefix(tmpdir(), { confine: true, network: false }, {}, []);
  const r = spawnSync(prefix[0]!, [...prefix.slice(1), "true"], { stdio: ["ignore", "ignore", "pipe"], timeout: 5000 });
  confinable = r.status === 0 ? undefined : `bubblewrap cannot confine here: ${r.error?.message ?? (r.stderr?.toString().trim().split("\n")[0] || `exit ${r.status}`)}`;
  return confinable;
}

/**
 * One line for the person (start-up header, `ink config`): which boundary applies to what, or
 * "no sandbox: <reason>" when none can.
 */
export function boundarySummary(settings: SandboxSettings = {}, env: NodeJS.ProcessEnv = process.env): string {
  const why = confinementUnavailable(env);
  if (why) return `no sandbox: ${why} — yolo runs and background or worktree children write and reach the network as you can`;
  const extra = (settings.allowWrite ?? []).length > 0 ? ` + ${settings.allowWrite!.join(", ")}` : "";
  const net = settings.network === "on" ? "on (settings)" : "off";
  return `sandbox: yolo runs and background children — writes: project + tmp${extra} · network: ${net}; worktree children — writes: their worktree + tmp${extra}; commands that ask first run with your files and network`;
}
