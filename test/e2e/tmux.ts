/**
 * A tmux server of its own (-L socket) for e2e tests: start a command in a detached session of a
 * given size, read the screen, wait for text, send keys, record the bytes written to the pane
 * (pipe-pane) and read pane flags such as #{alternate_on}. `kill()` stops only this server.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";

export const hasTmux = spawnSync("tmux", ["-V"]).status === 0;

/** Quotes `s` for sh. */
export const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export class Tmux {
  constructor(readonly socket: string) {}

  /** Runs a tmux command on this socket; throws with tmux's stderr when it fails. */
  run(...args: string[]): string {
    const r = spawnSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`tmux ${args.join(" ")} failed: ${r.stderr}`);
    return r.stdout;
  }

  /** Starts `command` (run by sh) in a new detached session `name` of `columns`×`rows`. */
  start(name: string, command: string, columns: number, rows: number): void {
    this.run("new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows), command);
  }

  /** Records every byte the pane's program writes to `file` (appended). */
  pipe(name: string, file: string): void {
    this.run("pipe-pane", "-t", name, `cat >> ${quote(file)}`);
  }

  /** The visible screen plus up to 500 rows of scrollback. */
  screen(name: string): string {
    return this.run("capture-pane", "-p", "-J", "-S", "-500", "-t", name);
  }

  /** The visible screen only. */
  visible(name: string): string {
    return this.run("capture-pane", "-p", "-J", "-t", name);
  }

  /** A pane format value, e.g. `#{alternate_on}`. */
  format(name: string, fmt: string): string {
    return this.run("display-message", "-p", "-t", name, fmt).trim();
  }

  keys(name: string, ...keys: string[]): void {
    this.run("send-keys", "-t", name, ...keys);
  }

  /** Types `text` literally. */
  type(name: string, text: string): void {
    this.run("send-keys", "-t", name, "-l", text);
  }

  /** Waits until `test(screen)` holds; throws with the last screen. */
  async waitFor(name: string, test: (s: string) => boolean, what: string, tries = 300, intervalMs = 50): Promise<string> {
    let s = "";
    for (let i = 0; i < tries; i++) {
      s = this.screen(name);
      if (test(s)) return s;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
    throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
  }

  /** Pid of the pane's first child process named `comm` (e.g. the node under the pane's shell). */
  childPid(name: string, comm = "node"): number | undefined {
    const shell = Number(this.format(name, "#{pane_pid}"));
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue; // gone meanwhile
      }
      // "pid (comm) state ppid …": comm may hold spaces, so split after its closing parenthesis.
      const close = stat.lastIndexOf(")");
      const procComm = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      if (ppid === shell && procComm === comm) return Number(entry);
    }
    return undefined;
  }

  kill(): void {
    spawnSync("tmux", ["-L", this.socket, "kill-server"]);
  }
}

/** Occurrences of `needle` in the bytes recorded in `file`. */
export function countBytes(file: string, needle: string): number {
  if (!existsSync(file)) return 0;
  const data = readFileSync(file, "latin1");
  return data.split(needle).length - 1;
}
