import { describe, expect, it } from "vitest";
import { fullscreenUpdate, inlineUpdate } from "./frame-diff.js";
import { compactSgr } from "./sgr-peephole.js";
import { random } from "../testing/random.js";
import { XtermScreen } from "../testing/xterm-screen.js";

const E = "\u001b[";
const dim = (s: string) => `${E}2m${s}${E}22m`;

describe("compactSgr", () => {
  it("drops a reset that the same colours re-open after cursor moves only", () => {
    const bytes = `${E}0m${E}27;72H${E}2mtests cov${E}0m${E}28;72H${E}2mtests cov${E}0m${E}40;1H`;
    expect(compactSgr(bytes)).toBe(`${E}27;72H${E}2mtests cov${E}28;72Htests cov${E}40;1H${E}0m`);
  });

  it("keeps the reset before text, erases and scrolls, and when other colours follow; writes only extra codes", () => {
    expect(compactSgr(`${E}2ma${E}0m${E}5Gb`)).toBe(`${E}2ma${E}5G${E}0mb`);
    expect(compactSgr(`${E}2ma${E}0m${E}5G${E}10X`)).toBe(`${E}2ma${E}5G${E}0m${E}10X`);
    expect(compactSgr(`${E}2ma${E}0m${E}5G${E}36mb${E}0m`)).toBe(`${E}2ma${E}5G${E}0;36mb${E}0m`); // one sequence for the reset and the colour
    expect(compactSgr(`${E}2ma${E}0m${E}5G${E}2m${E}1mb${E}0m`)).toBe(`${E}2ma${E}5G${E}1mb${E}0m`);
  });

  it("starts from the default pen (as frame-diff's runs of cells do) and leaves bytes without a reset as they are", () => {
    expect(compactSgr(`${E}0m${E}3Gx`)).toBe(`${E}3Gx`);
    expect(compactSgr(`${E}3Gx${E}1Ay`)).toBe(`${E}3Gx${E}1Ay`);
  });

  it("writes colour codes side by side as one sequence, in the same order", () => {
    expect(compactSgr(`${E}1m${E}36mx${E}0m${E}3G${E}m${E}38;5;200my`)).toBe(`${E}1;36mx${E}3G${E}0;38;5;200my`);
  });

  it("cuts the bytes of eight dim snippets one below the other, and the screen is the same, dim where it was", async () => {
    const rows = (word: string) => Array.from({ length: 8 }, (_, i) => `⠋ child ${i} [ab12cd] 12s · 1.2k tok · ${dim(word)}`);
    const before = rows("the tests cover");
    const after = rows("wraps at about o");
    const raw = fullscreenUpdate(before, after, 80, false);
    const term = new XtermScreen(80, 12);
    await term.write(`${before.join("\n")}\n${E}H`);
    await term.write(compactSgr(raw));
    expect(term.rows().slice(0, 8)).toEqual(after.map((r) => r.replace(/\u001b\[[0-9;]*m/g, "")));
    const at = "⠋ child 0 [ab12cd] 12s · 1.2k tok · ".length;
    for (let row = 0; row < 8; row++) {
      expect(term.cell(row, at - 2).dim, `row ${row} before the snippet`).toBe(false);
      for (let col = at; col < at + "wraps at about o".length; col++) expect(term.cell(row, col).dim, `row ${row} column ${col}`).toBe(true);
    }
    term.dispose();
    expect(compactSgr(raw).length).toBe(raw.length - 7 * 8); // seven resets and re-opened dims (8 bytes each) left out
  });

  it("leaves the pen as a fresh draw would over random coloured frames (colours compared cell by cell)", async () => {
    const rnd = random(61);
    const codes = ["2", "36", "1", "33"];
    const word = () => {
      const text = ["alpha", "beta", "gamma", "──", "·"][Math.floor(rnd() * 5)]!;
      const code = rnd() < 0.5 ? codes[Math.floor(rnd() * codes.length)] : undefined;
      return code ? `${E}${code}m${text}${E}0m` : text;
    };
    const frame = () => Array.from({ length: 10 }, () => Array.from({ length: Math.floor(rnd() * 6) }, word).join(" "));
    let prev = frame();
    const plain = new XtermScreen(60, 14, { scrollback: 0 });
    const compact = new XtermScreen(60, 14, { scrollback: 0 });
    await plain.write(`${prev.join("\n")}\n`);
    await compact.write(`${prev.join("\n")}\n`);
    let saved = 0;
    for (let step = 0; step < 200; step++) {
      const next = prev.map((r) => (rnd() < 0.4 ? frame()[0]! : r));
      const raw = step % 2 ? inlineUpdate(prev, next, 60) : fullscreenUpdate(prev, next, 60, false).replace(/^/, `${E}H`);
      const cut = compactSgr(raw);
      saved += raw.length - cut.length;
      // After the update, a character written with the pen in force (then the cursor and pen restored: DECSC/DECRC) shows the pen.
      const probe = `\u001b7${E}14;60HP\u001b8`;
      await plain.write(raw + probe);
      await compact.write(cut + probe);
      expect(styles(compact), `step ${step}`).toEqual(styles(plain));
      expect(compact.cell(13, 59), `step ${step}: the pen after the update`).toMatchObject({ char: "P", fg: { mode: "default" }, bold: false, dim: false });
      if (step % 2 === 0) {
        // back to the row below the frame, where the inline update expects the cursor
        await plain.write(`${E}${next.length + 1};1H`);
        await compact.write(`${E}${next.length + 1};1H`);
      }
      prev = next;
    }
    plain.dispose();
    compact.dispose();
    expect(saved).toBeGreaterThan(0);
  });
});

/** Every visible cell's character, colours and attributes, row by row. */
function styles(screen: XtermScreen): string[] {
  const rows: string[] = [];
  for (let row = 0; row < 14; row++) {
    const cells: string[] = [];
    for (let col = 0; col < 60; col++) cells.push(JSON.stringify(screen.cell(row, col)));
    rows.push(cells.join(""));
  }
  return rows;
}
