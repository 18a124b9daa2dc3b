import { describe, expect, it } from "vitest";
import { frameDiffEnabled, scrollRegionSupport } from "./terminal-options.js";

describe("terminal options", () => {
  it("the cell diff is on unless INK_FRAME_DIFF=off", () => {
    expect(frameDiffEnabled({})).toBe(true);
    expect(frameDiffEnabled({ INK_FRAME_DIFF: "on" })).toBe(true);
    expect(frameDiffEnabled({ INK_FRAME_DIFF: " OFF " })).toBe(false);
  });

  it("is decided from INK_SCROLL_REGION, else from TERM, and names a bad setting", () => {
    expect(scrollRegionSupport({ TERM: "tmux-256color" })).toBe(true);
    expect(scrollRegionSupport({ TERM: "xterm-256color" })).toBe(true);
    expect(scrollRegionSupport({ TERM: "linux" })).toBe(false);
    expect(scrollRegionSupport({ TERM: "dumb" })).toBe(false);
    expect(scrollRegionSupport({ TERM: "linux", WT_SESSION: "x" })).toBe(true);
    expect(scrollRegionSupport({ TERM: "linux", INK_SCROLL_REGION: "on" })).toBe(true);
    expect(scrollRegionSupport({ TERM: "xterm", INK_SCROLL_REGION: "off" })).toBe(false);
    const warnings: string[] = [];
    expect(scrollRegionSupport({ TERM: "xterm", INK_SCROLL_REGION: "yes" }, (m) => warnings.push(m))).toBe(true);
    expect(warnings[0]).toContain("INK_SCROLL_REGION=yes");
  });
});
