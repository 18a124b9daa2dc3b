import { describe, expect, it } from "vitest";
import { farewellLines } from "./alt-screen.js";

describe("farewellLines", () => {
  it("keeps the end of a long last answer, says what was left out, and ends with the resume command", () => {
    const answer = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n");
    const lines = farewellLines(answer, "20261203-101934-222c47", 30);
    expect(lines[0]).toBe("… (20 earlier lines of the last answer)");
    expect(lines).toContain("line 49");
    expect(lines).not.toContain("line 19");
    expect(lines.at(-1)).toBe("Resume this session: ink --resume 20261203-101934-222c47");
  });

  it("prints nothing for a run that saved no session and had no answer", () => {
    expect(farewellLines(undefined, undefined)).toEqual([]);
    expect(farewellLines("  \n", "id")).toEqual(["Resume this session: ink --resume id"]);
  });
});
