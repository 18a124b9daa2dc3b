/** Makes sure the esbuild bundle (dist/cli.js) is there and newer than the sources, for e2e tests. */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");
export const BUILT_CLI = join(root, "dist", "cli.js");

/** Newest modification time of the TypeScript sources under `dir`. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.tsx?$/.test(name)) newest = Math.max(newest, st.mtimeMs);
  }
  return newest;
}

/** Runs scripts/build.mjs when dist/cli.js is missing or older than src/ or components/; throws with esbuild's output when it fails. */
export function ensureBuilt(): void {
  const built = existsSync(BUILT_CLI) ? statSync(BUILT_CLI).mtimeMs : 0;
  if (built > Math.max(newestSource(join(root, "src")), newestSource(join(root, "components")))) return;
  const r = spawnSync(process.execPath, [join(root, "scripts", "build.mjs")], { cwd: root, encoding: "utf8" });
  if (r.status !== 0 || !existsSync(BUILT_CLI)) throw new Error(`the build failed (node scripts/build.mjs):\n${r.stdout}${r.stderr}`);
}
