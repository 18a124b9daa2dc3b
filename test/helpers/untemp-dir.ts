/** A folder for a sandbox test that is NOT under a temp dir (temp dirs stay writable by design): the checkout, or home when the checkout is a clone under /tmp. */
import { homedir, tmpdir } from "node:os";
import { realpathSync } from "node:fs";
import { sep } from "node:path";

export function untempBase(): string {
  const temps = [tmpdir(), "/tmp", "/var/tmp"].map((t) => { try { return realpathSync(t); } catch { return t; } });
  const cwd = realpathSync(process.cwd());
  return temps.some((t) => cwd === t || cwd.startsWith(t + sep)) ? homedir() : process.cwd();
}
