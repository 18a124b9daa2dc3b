/** A short child transcript full-screen: the box fills its region, no empty rows under it (issue #39 item 9). */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { TranscriptOverlay } from "./views/TranscriptOverlay.js";
import { OVERLAY_CHROME_ROWS } from "./layout/screen-layout.js";
import { stripAnsi } from "./testing/wait-for-frame.js";

afterEach(() => cleanup());

describe("TranscriptOverlay", () => {
  it("full-screen, a transcript of 2 lines still takes its whole height: the footer is its region's last row", () => {
    const lines = [{ text: "› find it", tone: "user" as const }, { text: "⏺ grep x", tone: "tool" as const }];
    const rows = stripAnsi(render(<TranscriptOverlay title="general · find it [ab12cd]" lines={lines} offset={0} height={12} width={80} fill />).lastFrame()!).split("\n");
    expect(rows).toHaveLength(12 + OVERLAY_CHROME_ROWS);
    expect(rows.at(-2)).toContain("lines 1–2 of 2");
    expect(rows.at(-1)).toMatch(/^╰─+╯$/);
    // Inline (no fill) it stays as tall as its lines.
    const inline = stripAnsi(render(<TranscriptOverlay title="t" lines={lines} offset={0} height={12} width={80} />).lastFrame()!).split("\n");
    expect(inline).toHaveLength(2 + OVERLAY_CHROME_ROWS);
  });
});
