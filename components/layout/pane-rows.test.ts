/**
 * paneTail reads a child's text from its end: the rows it gives are the last `n` of the whole text wrapped line by
 * line (blank lines left out, continuation rows without the space they broke at), and only the lines those rows come
 * from are wrapped — a pane of a child streaming a long report does not wrap all of it every frame. Counted by calls.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import * as measureModule from "./measure.js";
import type { ChildView } from "../state/transcript-types.js";
import { paneTail } from "./pane-rows.js";
import { dropBreakSpace } from "./text-rows.js";

vi.mock("./measure.js", async (importOriginal) => {
  const real = await importOriginal<typeof measureModule>();
  return { ...real, wrapRows: vi.fn(real.wrapRows) };
});
const wrapRows = vi.mocked(measureModule.wrapRows);

afterEach(() => wrapRows.mockClear());

/** The whole text's rows, as a pane shows them: every non-blank line wrapped, the last `n` rows. */
function expected(text: string, n: number, width: number): string[] {
  const lines = text.split("\n").map((l) => l.trimEnd()).filter((l) => l.trim() !== "");
  return lines.flatMap((l) => measureModule.wrapRows(l, width).map(dropBreakSpace)).slice(-n);
}

const report = Array.from({ length: 400 }, (_, i) => (i % 7 === 3 ? "   " : `line ${i}: the child reads the login handler and its tests, then writes what it found in a long row`)).join("\n");

describe("paneTail", () => {
  it("gives the last rows of the whole text, wrapping only the lines they come from", () => {
    const child: Pick<ChildView, "entries"> = { entries: [{ kind: "text", text: `${report}\n\n` }] };
    const want = expected(report, 6, 40);
    wrapRows.mockClear();
    const rows = paneTail(child, 6, 40);
    expect(wrapRows.mock.calls.length).toBeLessThanOrEqual(6);
    expect(rows.map((r) => (r.kind === "text" ? r.text : ""))).toEqual(want);
  });

  it("reads on into earlier entries, a tool call a row of its own", () => {
    const tool = { kind: "tool" as const, id: "t1", name: "grep", args: { pattern: "login" }, status: "ok" as const };
    const child = { entries: [{ kind: "text", text: "first words\nof the child" }, tool, { kind: "text", text: "\nafter the call  \n" }] } as unknown as Pick<ChildView, "entries">;
    expect(paneTail(child, 4, 40).map((r) => (r.kind === "text" ? r.text : `tool ${r.tool.name}`))).toEqual(["first words", "of the child", "tool grep", "after the call"]);
    expect(paneTail(child, 2, 40).map((r) => (r.kind === "text" ? r.text : `tool ${r.tool.name}`))).toEqual(["tool grep", "after the call"]);
    expect(paneTail({ entries: [{ kind: "text", text: "" }] } as unknown as Pick<ChildView, "entries">, 3, 40)).toEqual([]);
  });
});
