/**
 * An INK_HOME on a location that can be filled up for e2e tests: a small tmpfs where the machine
 * allows mounting one, else an injected ENOSPC (a preload module makes every write under INK_HOME
 * fail once the file `<home>/full` exists). `fill` / `free` are shell commands for the model's
 * bash tool; `env` goes to the CLI.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface FullDiskHome {
  home: string;
  /** "tmpfs" (a real full file system) or "injected" (writes fail with an injected ENOSPC). */
  kind: "tmpfs" | "injected";
  env: Record<string, string>;
  /** A shell command that makes the location full. */
  fill: string;
  /** A shell command that frees it again. */
  free: string;
  cleanup(): void;
}

const PRELOAD = `
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { resolve } from "node:path";
const home = resolve(process.env.INK_HOME);
const full = () => fs.existsSync(home + "/full");
const under = (p) => typeof p === "string" && resolve(p).startsWith(home + "/");
const enospc = (p) => Object.assign(new Error("ENOSPC: no space left on device, write '" + p + "'"), { code: "ENOSPC", errno: -28, syscall: "write", path: p });
const wrap = (name, writes) => {
  const original = fs[name];
  fs[name] = function (p, ...rest) {
    if (full() && under(p) && writes(rest)) throw enospc(p);
    return original.call(this, p, ...rest);
  };
};
wrap("writeFileSync", () => true);
wrap("appendFileSync", () => true);
wrap("mkdirSync", () => true);
wrap("linkSync", () => true);
wrap("renameSync", () => true);
wrap("openSync", ([flags]) => typeof flags === "string" ? /[wa+]/.test(flags) : typeof flags === "number" && (flags & 3) !== 0);
syncBuiltinESMExports();
`;

/** Mounts a tmpfs of `size` (e.g. "512k") or falls back to the injected ENOSPC (see module comment). */
export function fullDiskHome(size = "512k"): FullDiskHome {
  const home = mkdtempSync(join(tmpdir(), "ink-full-home-"));
  if (process.env.INK_TEST_NO_TMPFS !== "1") {
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", home], { stdio: "ignore" });
      return {
        home,
        kind: "tmpfs",
        env: { INK_HOME: home },
        // The output (a tool result over a page long) cannot fit in the session file's last page either.
        fill: `cat /dev/zero > ${home}/filler 2>/dev/null; head -c 6000 /dev/zero | tr '\\0' x; echo; echo filled`,
        free: `rm -f ${home}/filler; echo freed`,
        cleanup: () => {
          execFileSync("umount", ["-l", home], { stdio: "ignore" });
          rmSync(home, { recursive: true, force: true });
        },
      };
    } catch {
      // not allowed here: inject the error instead
    }
  }
  const preloadDir = mkdtempSync(join(tmpdir(), "ink-enospc-"));
  const preload = join(preloadDir, "enospc.mjs");
  writeFileSync(preload, PRELOAD);
  return {
    home,
    kind: "injected",
    env: { INK_HOME: home, NODE_OPTIONS: `--import=${preload}` },
    fill: `touch ${home}/full; echo filled`,
    free: `rm -f ${home}/full; echo freed`,
    cleanup: () => {
      rmSync(home, { recursive: true, force: true });
      rmSync(preloadDir, { recursive: true, force: true });
    },
  };
}

/**
 * Mounts an empty read-only tmpfs at `dir` (created if needed) where the machine allows it;
 * returns the unmount function, or undefined when mounting is not allowed here.
 */
export function mountReadOnly(dir: string): (() => void) | undefined {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", dir], { stdio: "ignore" });
  } catch {
    return undefined;
  }
  return () => execFileSync("umount", ["-l", dir], { stdio: "ignore" });
}

/**
 * Makes the existing directory `dir` read-only in place (a read-only bind mount over itself)
 * where the machine allows it; returns the unmount function, or undefined when it is not allowed.
 */
export function bindReadOnly(dir: string): (() => void) | undefined {
  try {
    execFileSync("mount", ["--bind", dir, dir], { stdio: "ignore" });
  } catch {
    return undefined;
  }
  const unmount = () => execFileSync("umount", ["-l", dir], { stdio: "ignore" });
  try {
    execFileSync("mount", ["-o", "remount,ro,bind", dir], { stdio: "ignore" });
  } catch {
    unmount();
    return undefined;
  }
  return unmount;
}
