import { describe, expect, it } from "vitest";
import { grouped } from "../../src/cli/print-mode.js";

describe("grouped (the token counts of print mode's last line)", () => {
  it("writes what toLocaleString('en-US') writes, without ICU", () => {
    for (const n of [0, 7, 999, 1000, 13_200, 999_999, 1_000_000, 1_234_567_890, -4321, 12.5, 1234.75]) {
      expect(grouped(n)).toBe(n.toLocaleString("en-US"));
    }
  });
});
