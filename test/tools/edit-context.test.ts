/** An edit's context and hunk, shared by the TUI's approval and the control channel's. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { editContext, editHunk } from "../../src/tools/edit-context.js";
import { tempDir } from "./context.js";

let cleanup = () => {};
afterEach(() => cleanup());

describe("editContext / editHunk", () => {
  it("reads the change's whole lines and up to 3 lines either side, and numbers the hunk from the first context line", () => {
    const t = tempDir("ink-edit-context-");
    cleanup = t.cleanup;
    writeFileSync(join(t.dir, "a.ts"), "l1\nl2\nl3\nl4\nlet x = 1; // keep\nl6\n");
    const c = editContext("a.ts", "x = 1", t.dir)!;
    expect(c).toEqual({ line: 5, prefix: "let ", suffix: "; // keep", before: ["l2", "l3", "l4"], after: ["l6"] });
    expect(editHunk("x = 1", "x = 2\ny = 3", c)).toEqual({
      header: "@@ -2,5 +2,6 @@",
      before: ["l2", "l3", "l4"],
      oldLines: ["let x = 1; // keep"],
      newLines: ["let x = 2", "y = 3; // keep"],
      after: ["l6"],
    });
  });

  it("without context (no file, or text not in it) the hunk is the change alone, with no header", () => {
    const t = tempDir("ink-edit-context-");
    cleanup = t.cleanup;
    expect(editContext("missing.ts", "x", t.dir)).toBeUndefined();
    writeFileSync(join(t.dir, "b.ts"), "abc\n");
    expect(editContext("b.ts", "zzz", t.dir)).toBeUndefined();
    expect(editHunk("a\nb", "c")).toEqual({ before: [], oldLines: ["a", "b"], newLines: ["c"], after: [] });
  });
});
