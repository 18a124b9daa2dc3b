/**
 * CLAUDE_ENV_FILE: a file SessionStart hooks may write `export VAR=value` lines to; later bash
 * commands run with those variables. The file is sourced by `/bin/sh` (so `export PATH="$PATH:…"`
 * works as in Claude Code) and what it exported is kept, re-read only when the file changes. A
 * file that does not source cleanly is reported once, naming the file, and bash runs without it.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export class EnvFile {
  private stamp = "";
  private vars: Record<string, string> = {};

  private constructor(
    readonly path: string,
    private readonly report: (line: string) => void,
  ) {}

  /** A fresh, empty env file in its own temp folder. */
  static create(report: (line: string) => void): EnvFile {
    const dir = mkdtempSync(join(tmpdir(), "ink-env-"));
    const file = new EnvFile(join(dir, "env.sh"), report);
    writeFileSync(file.path, "");
    return file;
  }

  /** The variables the file exports over `base` (none while it is empty or missing). Never throws. */
  variables(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
    let stamp: string;
    try {
      const st = statSync(this.path);
      stamp = `${st.mtimeMs}:${st.size}`;
      if (st.size === 0) return {};
    } catch {
      return {};
    }
    if (stamp === this.stamp) return this.vars;
    this.stamp = stamp;
    const clean: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(base)) if (v !== undefined) clean[k] = v;
    const r = spawnSync("/bin/sh", ["-c", '. "$1" >/dev/null && env -0', "ink-env", this.path], { env: clean, encoding: "utf8", timeout: 10_000 });
    if (r.status !== 0) {
      const why = (r.stderr || r.error?.message || `exit ${r.status}`).trim().split("\n")[0];
      this.report(`CLAUDE_ENV_FILE ${this.path} (written by a SessionStart hook) could not be sourced: ${why}; bash commands run without its variables until it is fixed`);
      this.vars = {};
      return this.vars;
    }
    const vars: Record<string, string> = {};
    for (const pair of r.stdout.split("\0")) {
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const key = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (clean[key] !== value && !["PWD", "OLDPWD", "SHLVL", "_"].includes(key)) vars[key] = value;
    }
    this.vars = vars;
    return vars;
  }

  /** Removes the file and its folder. */
  remove(): void {
    rmSync(join(this.path, ".."), { recursive: true, force: true });
  }
}
