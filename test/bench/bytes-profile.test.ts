import { describe, expect, it } from "vitest";
import { bytesProfile, formatProfile } from "../../bench/bytes-profile.js";

const ESC = "\u001b";

describe("bytesProfile", () => {
  it("splits a frame's bytes by kind, each byte counted once", () => {
    const frame = `${ESC}[?2026h${ESC}[3;5H${ESC}[0;2mhello${ESC}[0m${ESC}[K\r\n${ESC}[2;20r${ESC}[1S${ESC}[r${ESC}[?25l${ESC}]0;title\u0007é${ESC}[?2026l`;
    const p = bytesProfile(frame);
    expect(p).toEqual({
      markers: 16,
      moves: 6 + 2, // ESC[3;5H, \r\n
      colours: 6 + 4,
      text: 5 + 1,
      erases: 3,
      scrolls: 7 + 4 + 3,
      modes: 6,
      other: 10,
    });
    expect(Object.values(p).reduce((a, b) => a + b, 0)).toBe(frame.length);
  });

  it("counts ECH, IL/DL and RI as erases and scrolls, a torn sequence at the end as other", () => {
    expect(bytesProfile(`${ESC}[12X${ESC}[2L${ESC}[3M${ESC}M`)).toMatchObject({ erases: 5, scrolls: 4 + 4 + 2 });
    expect(bytesProfile(`ab${ESC}[3`)).toMatchObject({ text: 2, other: 3 });
  });

  it("formats the kinds over 0.5 KB, largest first", () => {
    const text = "x".repeat(12_000);
    const moves = `${ESC}[1;1H`.repeat(300); // 1.8 KB
    const colours = `${ESC}[0m`.repeat(100); // 0.4 KB: left out
    expect(formatProfile(bytesProfile(text + moves + colours))).toBe("text 12 KB, moves 1.8 KB");
  });
});
