import { afterEach, describe, expect, it } from "vitest";
import { XtermScreen } from "./xterm-screen.js";

let screen: XtermScreen | undefined;
afterEach(() => screen?.dispose());

describe("XtermScreen (@xterm/headless for tests)", () => {
  it("reads rows, the cursor, and each cell's colours and attributes", async () => {
    screen = new XtermScreen(20, 4);
    await screen.write("plain \u001b[1;35mbold\u001b[22;39m \u001b[38;5;120;48;2;1;2;3mx\u001b[0m\n漢\u001b[7my\u001b[27m");
    expect(screen.rows()).toEqual(["plain bold x", "漢y", "", ""]);
    expect(screen.cursor()).toEqual({ row: 1, col: 3 });
    expect(screen.cell(0, 0)).toMatchObject({ char: "p", fg: { mode: "default" }, bold: false });
    expect(screen.cell(0, 6)).toMatchObject({ char: "b", fg: { mode: "palette", index: 5 }, bold: true });
    expect(screen.cell(0, 10)).toMatchObject({ char: " ", fg: { mode: "default" }, bold: false });
    expect(screen.cell(0, 11)).toMatchObject({ char: "x", fg: { mode: "palette", index: 120 }, bg: { mode: "rgb", rgb: 0x010203 } });
    expect(screen.cell(1, 0)).toMatchObject({ char: "漢", width: 2 });
    expect(screen.cell(1, 2)).toMatchObject({ char: "y", inverse: true });
    expect(screen.find("y")).toEqual({ row: 1, col: 2 });
    expect(() => screen!.cell(9, 0)).toThrow(/row 9.*20x4/);
  });
});
