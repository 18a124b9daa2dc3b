import { describe, expect, it } from "vitest";
import { wheelStep } from "./mouse.js";

describe("wheelStep", () => {
  it("reads SGR wheel reports, with modifiers, as up (+1) and down (-1)", () => {
    expect(wheelStep("\u001b[<64;12;7M")).toBe(1);
    expect(wheelStep("\u001b[<65;1;1M")).toBe(-1);
    expect(wheelStep("\u001b[<80;1;1M")).toBe(1); // Ctrl + wheel up
    expect(wheelStep("\u001b[<69;1;1M")).toBe(-1); // Shift + wheel down
  });

  it("swallows clicks, releases and the horizontal wheel (0), and is not fooled by keys (undefined)", () => {
    expect(wheelStep("\u001b[<0;5;5M")).toBe(0);
    expect(wheelStep("\u001b[<0;5;5m")).toBe(0);
    expect(wheelStep("\u001b[<66;5;5M")).toBe(0);
    expect(wheelStep("\u001b[A")).toBeUndefined();
    expect(wheelStep("\u001b[5~")).toBeUndefined();
    expect(wheelStep("<64;1;1M")).toBeUndefined();
  });
});
