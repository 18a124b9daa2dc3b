/**
 * The command that starts Ink again from where the person is, for every "come back with …" hint
 * (the exit screen, /clear, `ink -p`'s saved line): `ink` only when `ink` on the PATH is what ran,
 * `npm start --` under `npm start`, else `node <the script that ran>` — so a hint never names a
 * command the person's shell does not have.
 */
import { existsSync, realpathSync } from "node:fs";
import { delimiter, isAbsolute, join, relative, resolve } from "node:path";

export interface LaunchFacts {
  /** The script node ran (process.argv[1]). */
  script: string | undefined;
  env: Record<string, string | undefined>;
  /** The directory the person is in. */
  cwd: string;
}

/** Where `name` resolves on `PATH`, or undefined. */
function onPath(name: string, env: Record<string, string | undefined>): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const quoteArg = (s: string): string => (/^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The command prefix that runs this Ink again: `ink`, `npm start --` or `node <script>`. */
export function launchCommand(facts: LaunchFacts): string {
  const { script, env } = facts;
  if (env.npm_lifecycle_event === "start" && env.npm_package_name === "ink-agent") return "npm start --";
  if (!script) return "ink";
  const ran = real(resolve(facts.cwd, script));
  const ink = onPath("ink", env);
  if (ink && real(ink) === ran) return "ink";
  // Under npm the person's directory is INIT_CWD (npm runs scripts from the package's folder).
  const from = env.INIT_CWD ?? facts.cwd;
  const abs = resolve(facts.cwd, script);
  const rel = relative(from, abs);
  const shown = rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : abs;
  return `node ${quoteArg(shown)}`;
}

let cached: string | undefined;

/** {@link launchCommand} for this process (worked out once). */
export function inkCommand(): string {
  cached ??= launchCommand({ script: process.argv[1], env: process.env, cwd: process.cwd() });
  return cached;
}

/** `… --resume <id>` with the command that works from here. */
export function resumeCommand(sessionId: string): string {
  return `${inkCommand()} --resume ${sessionId}`;
}

