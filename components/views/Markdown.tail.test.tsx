import { Box } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { markdownTail } from "../layout/markdown-lines.js";
import { LiveItems } from "./Transcript.js";
import { screenLayout } from "../layout/screen-layout.js";
import type { TranscriptItem } from "../state/transcript-types.js";

/** A streaming answer of 40 paragraphs of ~150 characters: each wraps to two rows at 80 columns. */
function longAnswer(): string {
  return Array.from({ length: 40 }, (_, i) => `Line ${i} ${"lorem ipsum dolor sit amet ".repeat(5)}end${i}`).join("\n");
}

describe("the live tail of a streaming answer is budgeted in wrapped rows", () => {
  it("markdownTail keeps the newest words in the last rows it draws at the width", () => {
    const tail = markdownTail(longAnswer(), 6, 80);
    expect(tail.rows).toHaveLength(6);
    expect(tail.more).toBe(true);
    expect(tail.rows.at(-1)!.endsWith("end39")).toBe(true);
    // Counted in source lines, 6 lines of ~150 characters would have taken 12 rows: these are 3 lines' rows.
    expect(tail.rows.filter((r) => r.startsWith("Line ")).length).toBe(3);
  });

  it("a 24-row terminal never gets a live frame as tall as itself from long wrapped lines", async () => {
    const live: TranscriptItem[] = [{ kind: "assistant", id: "a1", done: false, text: longAnswer() }];
    // The rows the screen gives the live items at 80×24, after the prompt and the status bar.
    const { liveRows, frameRows } = screenLayout({ mode: "inline", columns: 80, rows: 24, promptRows: 1, approvalRows: 0, picker: false, sidebar: false, overlay: false });
    expect(frameRows).toBe(23);
    const { lastFrame } = render(
      <Box width={80} flexDirection="column">
        <LiveItems live={live} now={0} columns={80} rows={liveRows} />
      </Box>,
    );
    await new Promise((r) => setTimeout(r, 50));
    const frame = lastFrame() ?? "";
    expect(frame).toContain("end39");
    expect(frame.split("\n").length).toBeLessThanOrEqual(liveRows);
    // Counted in source lines the same tail would have taken about twice the rows.
    expect(liveRows * 2).toBeGreaterThan(24);
  });
});
