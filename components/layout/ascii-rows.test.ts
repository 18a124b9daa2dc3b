/** asciiRows must count the rows wrap-ansi makes (Ink's wrapping) for any line of printable ASCII. */
import { describe, expect, it } from "vitest";
import wrapAnsi from "wrap-ansi";
import { asciiRows } from "./ascii-rows.js";
import { random } from "../testing/random.js";

const rows = (line: string, columns: number) => wrapAnsi(line, columns, { hard: true, trim: false }).split("\n").length;

describe("asciiRows", () => {
  it("counts what wrap-ansi makes of random lines: long words, runs of spaces, words that fill a row exactly", () => {
    const rnd = random(31);
    // 6,000 random lines (wrap-ansi, the reference, is slow: 20,000 took over 30 s on a loaded machine).
    for (let i = 0; i < 6_000; i++) {
      const columns = 1 + Math.floor(rnd() * 30);
      let line = "";
      for (let k = 0, n = Math.floor(rnd() * 12); k < n; k++) {
        const r = rnd();
        const word = r < 0.2 ? "x".repeat(columns) : r < 0.35 ? "y".repeat(columns + Math.floor(rnd() * 3 * columns)) : "abcdefghij".slice(0, Math.floor(rnd() * 10));
        line += word + " ".repeat(rnd() < 0.2 ? 2 + Math.floor(rnd() * 3) : rnd() < 0.9 ? 1 : 0);
      }
      if (rnd() < 0.2) line = ` ${line}`;
      const got = asciiRows(line, columns);
      const want = rows(line, columns);
      if (got !== want) expect(got, `${JSON.stringify(line)} at ${columns}`).toBe(want);
    }
  });

  it("counts prose as wrap-ansi does at terminal widths", () => {
    const prose = "The login is handled in src/auth/login.ts, which verifies the request and redirects the user after a successful check; the tests cover it. https://example.com/a/very/long/address/that/does/not/fit/on/one/row/of/the/terminal";
    for (const columns of [1, 2, 10, 40, 76, 80, 116, 156]) expect(asciiRows(prose, columns), `at ${columns}`).toBe(rows(prose, columns));
    expect(asciiRows("", 80)).toBe(1);
  });
});

describe("rowCount", () => {
  it("gives the rows wrapRows makes, for ASCII text of several lines (counted) and for other text (wrapped)", async () => {
    const { rowCount, wrapRows } = await import("./measure.js");
    const texts = ["Answer 1: the login is handled in src/auth/login.ts.\n\n- one point\n- another point that is long enough to wrap at forty columns or so", "\n", "", "a  b\n\n\nc", "漢字 and ascii that wraps at a narrow width", "\u001b[1mbold words\u001b[22m that wrap"];
    for (const text of texts) for (const width of [1, 7, 20, 40, 80]) expect(rowCount(text, width), `${JSON.stringify(text)} at ${width}`).toBe(wrapRows(text, width).length);
  });
});
