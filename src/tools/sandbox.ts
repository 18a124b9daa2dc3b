/**
 * Where `bash` runs: in its own PID and mount namespace when the system allows one (bubblewrap,
 * else util-linux `unshare` — as root directly, as a normal user inside a user namespace), so a
 * command sees only its own processes in /proc: no other process's environment (the parent shell's
 * API key), whatever path spelling or glob reaches it. Everything a command starts stays in the
 * namespace, even after `setsid` and a cleared environment, and dies with it. The filesystem and
 * network are the host's (the working tree, git and npm work as before). Elsewhere, or when the
 * kernel refuses, commands run unsandboxed and only the permission layer's secret-path check and
 * Ink's masked own environment protect the key. `INK_BASH_SANDBOX=off` turns the sandbox off;
 * `INK_BASH_SANDBOX=unshare` skips bubblewrap.
 */
import { spawnSync } from "node:child_process";

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
