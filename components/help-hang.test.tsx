import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { TranscriptItemView } from "./views/TranscriptItemView.js";
import { runSlashCommand } from "./state/slash-commands.js";
import { itemLines } from "./layout/item-lines.js";
import type { TranscriptItem } from "./state/transcript-types.js";

describe("/help at 80 columns", () => {
  it("hangs each wrapped entry at its text column instead of wrapping to column 0, and the row count matches the drawing", () => {
    const out = runSlashCommand("/help", { profiles: [], notices: [] })!;
    const text = out.kind === "lines" ? out.lines.join("\n") : "";
    const item: TranscriptItem = { kind: "info", id: "h", done: true, tone: "info", text };
    const app = render(<TranscriptItemView item={item} now={0} width={80} />);
    const rows = app.lastFrame()!.split("\n");
    app.unmount();
    // Only the section titles start at column 0; every other row is indented.
    const atZero = rows.filter((r) => r !== "" && !r.startsWith(" "));
    expect(atZero.every((r) => /^(Commands|Command files|Keys):$/.test(r.trim()))).toBe(true);
    // A command's wrapped help goes on under its text, past the command column.
    const cost = rows.findIndex((r) => r.trimStart().startsWith("/cost"));
    const col = rows[cost]!.indexOf(rows[cost]!.trimStart().split(/\s{2,}/)[1]!);
    expect(rows.length).toBe(itemLines(item, 80).length);
    if (rows[cost + 1] && !rows[cost + 1]!.trimStart().startsWith("/")) expect(rows[cost + 1]!.length - rows[cost + 1]!.trimStart().length).toBe(col);
  });
});
