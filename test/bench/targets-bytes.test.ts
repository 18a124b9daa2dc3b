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
  const soak = (extra: Record<string, number>, median = 1.2): Figure => ({ group: "render", name: "soak (answers and 1 main + 8 children, continuously): RSS slope", median, unit: "MB/min", runs: 1, extra: { minutes: 10, startRssMb: 117, endRssMb: 150, peakRssMb: 155, ...extra } });
  const row = (extra: Record<string, number>, median?: number) => targetFigures([soak(extra, median)]).find((r) => r.name === "RSS over a 10-minute soak, slope after warm-up")!;

  it("when missed, names what grows: the live heap's parts largest first, old space's free part, RSS outside the heap", () => {
    const r = row({ liveSlope: 0.9, endLiveMb: 41, codeSlope: 0.2, largeObjectSlope: 0.05, conversationSlope: 0.25, oldSpaceSlope: 0.8, oldFreeSlope: -0.1, outsideHeapSlope: 0.09 });
    expect(r.note).toMatch(/^MISSED: /);
    expect(r.note).toContain("live heap after a full GC +0.90 MB (41 MB at the end): the rest (caches still filling, …) +0.40, the conversation (its session file) +0.25, JIT code and bytecode +0.20, large objects +0.05");
    expect(r.note).toContain("V8 old space +0.80 MB (its free part -0.10)");
    expect(r.note).toContain("RSS outside the heap +0.09 MB");
  });

  it("puts the largest growing part first", () => {
    const r = row({ liveSlope: 0.5, codeSlope: 0.4, largeObjectSlope: 0, oldSpaceSlope: 0.5, outsideHeapSlope: 0 });
    expect(r.note).toMatch(/full GC \+0\.50 MB: JIT code and bytecode \+0\.40, the rest \(caches still filling, …\) \+0\.10, large objects \+0\.00/);
  });

  it("a memory log without the parts (an older run) still gives the live heap's, old space's and the rest's slopes", () => {
    const r = row({ endRssMb: 168, peakRssMb: 172, endLiveMb: 46.4, liveSlope: 1.1, oldSpaceSlope: 2.6, outsideHeapSlope: -0.05 }, 3.6);
    expect(r.note).toBe("MISSED: target ≤ 0.2 MB/min and peak ≤ 150 MB; 117 → 168 MB, peak 172 MB; per minute: live heap after a full GC +1.10 MB (46 MB at the end): the rest (caches still filling, …) +1.10; V8 old space +2.60 MB; RSS outside the heap -0.05 MB");
  });

  it("met: flat and under the peak", () => {
    expect(row({ liveSlope: 0.1, peakRssMb: 140 }, 0.15).note).toMatch(/^met: /);
  });
});
