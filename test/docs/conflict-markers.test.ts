import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/** A merge left half-done (`<<<<<<< HEAD` … `>>>>>>> <sha>`) must not land: one did, in docs/architecture.md. */
describe("tracked files", () => {
  it("hold no merge conflict markers", () => {
    const root = new URL("../..", import.meta.url).pathname;
    const files = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter((f) => /\.(ts|tsx|js|mjs|md|json)$/.test(f) && f !== "package-lock.json");
    let out = "";
    try {
      out = execFileSync("git", ["grep", "-nE", "^(<<<<<<< |>>>>>>> |=======$)", "--", ...files], { cwd: root, encoding: "utf8" });
    } catch (error) {
      // git grep exits 1 when nothing matches.
      if ((error as { status?: number }).status !== 1) throw error;
    }
    expect(out).toBe("");
  });
});
