/**
 * `npm install` is clean: no peer dependency the lockfile leaves unmet (vite wants a newer esbuild
 * than we pinned once) and no install script npm lists as unreviewed (allowScripts covers each).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const json = (p: string) => JSON.parse(readFileSync(join(root, p), "utf8"));

describe("npm install is clean", () => {
  it("every installed package's peer dependencies are met (npm ls reports no invalid or missing package)", () => {
    const r = spawnSync("npm", ["ls", "--all", "--offline"], { cwd: root, encoding: "utf8" });
    expect(`${r.stdout}${r.stderr}`.split("\n").filter((l) => /invalid|missing|ELSPROBLEMS/.test(l))).toEqual([]);
    expect(r.status).toBe(0);
  });

  it("each dependency with an install script is reviewed in package.json's allowScripts", () => {
    const lock = json("package-lock.json") as { packages: Record<string, { hasInstallScript?: boolean }> };
    const allowed = Object.keys((json("package.json") as { allowScripts?: Record<string, boolean> }).allowScripts ?? {});
    const withScripts = Object.entries(lock.packages)
      .filter(([path, p]) => path !== "" && p.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((name) => !allowed.includes(name))).toEqual([]);
  });
});
