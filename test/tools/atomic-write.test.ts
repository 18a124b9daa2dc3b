import { chmodSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../src/tools/atomic-write.js";
import { editTool } from "../../src/tools/edit.js";
import { writeTool } from "../../src/tools/write.js";
import { makeCtx, tempDir } from "./context.js";

let cleanup = () => undefined as void;
afterEach(() => cleanup());

describe("atomic writes", () => {
  it("replaces content, keeps the mode, writes through a symlink and leaves no temp file", async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, "run.sh");
    writeFileSync(file, "old");
    chmodSync(file, 0o755);
    symlinkSync(file, join(t.dir, "link.sh"));
    await writeFileAtomic(join(t.dir, "link.sh"), "new");
    expect(readFileSync(file, "utf8")).toBe("new");
    expect(statSync(file).mode & 0o777).toBe(0o755);
    expect(readdirSync(t.dir).sort()).toEqual(["link.sh", "run.sh"]);
  });

  it("an abort during a large write or edit never truncates the file", async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, "big.txt");
    const original = `${"x".repeat(20_000_000)}\nmarker\n`;
    writeFileSync(file, original);
    const controller = new AbortController();
    const edit = editTool.execute({ path: "big.txt", oldText: "marker", newText: "changed" }, makeCtx(t.dir, controller.signal));
    setImmediate(() => controller.abort());
    await edit;
    const after = readFileSync(file, "utf8");
    // either the edit happened completely or not at all
    expect([original, original.replace("marker", "changed")]).toContain(after);
    const c2 = new AbortController();
    const write = writeTool.execute({ path: "big.txt", content: "y".repeat(20_000_000) }, makeCtx(t.dir, c2.signal));
    setImmediate(() => c2.abort());
    await write;
    const size = statSync(file).size;
    expect([original.length, original.replace("marker", "changed").length, 20_000_000]).toContain(size);
    expect(readdirSync(t.dir)).toEqual(["big.txt"]);
  });
});
