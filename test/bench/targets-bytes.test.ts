import { describe, expect, it } from "vitest";
import { bytesProfile, profileExtra } from "../../bench/bytes-profile.js";
import type { Figure } from "../../bench/stats.js";
import { targetFigures } from "../../bench/targets.js";

const ESC = "\u001b";

function kidsFigure(mode: string, written: string): Figure {
  return {
    group: "render",
    name: `8 children × 50 tokens/s for 51 s, ${mode}: CPU`,
    median: 3,
    unit: "s",
    runs: 1,
    extra: { bytes: written.length, cpuPercentOfOneCore: 5, ...profileExtra([bytesProfile(written)]) },
  };
}

describe("byte targets name what the bytes carried", () => {
  it("a missed --inline byte target says how its bytes split", () => {
    const written = "t".repeat(90_000) + `${ESC}[12;1H`.repeat(4_000); // 90 KB of text, 28 KB of moves
    const rows = targetFigures([kidsFigure("--inline", written)]);
    const bytes = rows.find((r) => r.name === "8 children for 51 s, bytes written (--inline)")!;
    expect(bytes.note).toMatch(/^MISSED: target ≤ 100 KB; written: text 90 KB, moves 28 KB$/);
  });

  it("a met full-screen one keeps its ratio to Claude Code's and the split", () => {
    const rows = targetFigures([kidsFigure("full-screen", "x".repeat(15_000))]);
    const bytes = rows.find((r) => r.name === "8 children for 51 s, bytes written (full-screen)")!;
    expect(bytes.note).toContain("met:");
    expect(bytes.note).toContain("0.8× Claude Code's; written: text 15 KB");
  });
});

describe("the soak target names where its slope came from", () => {
  it("gives the live heap's, old space's and the rest's slopes from the soak's memory log", () => {
    const soak: Figure = {
      group: "render",
      name: "soak (answers and 1 main + 8 children, continuously): RSS slope",
      median: 3.6,
      unit: "MB/min",
      runs: 1,
      extra: { minutes: 10, startRssMb: 117, endRssMb: 168, peakRssMb: 172, endLiveMb: 46.4, liveSlope: 1.1, oldSpaceSlope: 2.6, outsideHeapSlope: -0.05 },
    };
    const row = targetFigures([soak]).find((r) => r.name.startsWith("RSS over a 10-minute soak"))!;
    expect(row.note).toBe("MISSED: target ≤ 0.2 MB/min and peak ≤ 150 MB; 117 → 168 MB, peak 172 MB; per minute: live heap after a full GC +1.10 MB (46 MB at the end), V8 old space +2.60 MB, RSS outside the heap -0.05 MB");
  });
});
