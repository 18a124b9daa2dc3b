import { describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { inkStream, reflowedRows, reflowErase, terminalRows } from "./ink-stream.js";

describe("inline reflow on a narrower terminal", () => {
  const frame = `${"─".repeat(160)}\n│ › Ask Ink${" ".repeat(148)}│\n${"─".repeat(160)}\nstatus\nkeys\n`;

  it("counts the rows each frame line covers once wrapped at the new width", () => {
    expect(reflowedRows(frame, 160)).toBe(5);
    expect(reflowedRows(frame, 120)).toBe(8); // three 160-column lines take two rows each
    expect(reflowedRows(frame, 50)).toBe(4 * 3 + 2);
    expect(reflowedRows("\u001b[36mcoloured\u001b[39m\n", 4)).toBe(2); // colours take no columns
  });

  it("erases the reflowed rows and leaves the cursor where Ink's own erase reaches the frame's top", () => {
    // Cursor just below the frame: up 8 rows to its top, erase to the end, down 5 (Ink erases 6 rows up).
    expect(reflowErase(frame, 120)).toBe("\u001b[8A\r\u001b[J\u001b[5B");
    expect(reflowErase(frame, 160)).toBe("");
    expect(reflowErase("short\nlines\n", 40)).toBe("");
  });
});

describe("inkStream", () => {
  it("tells Ink the terminal is unboundedly tall (so Ink never clears it) and keeps the real height for the UI", () => {
    const tty = Object.assign(new PassThrough(), { rows: 24, columns: 80, isTTY: true }) as unknown as NodeJS.WriteStream;
    const s = inkStream(tty, { reflow: false });
    expect(s.rows).toBeGreaterThan(10_000);
    expect(terminalRows(s)).toBe(24);
    (tty as { rows: number }).rows = 30;
    expect(terminalRows(s)).toBe(30);
    expect(s.columns).toBe(80);
    expect(terminalRows(tty)).toBe(30);
  });
});
