import { describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { enterAltScreen, farewellLines } from "./alt-screen.js";
import { MOUSE_OFF, MOUSE_ON } from "./mouse.js";

describe("farewellLines", () => {
  it("keeps the end of a long last answer, says what was left out, and ends with the resume command", () => {
    const answer = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n");
    const lines = farewellLines(answer, "20261203-101934-222c47", 30, "ink");
    expect(lines[0]).toBe("… (20 earlier lines of the last answer)");
    expect(lines).toContain("line 49");
    expect(lines).not.toContain("line 19");
    expect(lines.at(-1)).toBe("Resume this session: ink --resume 20261203-101934-222c47");
  });

  it("prints nothing for a run that saved no session and had no answer", () => {
    expect(farewellLines(undefined, undefined)).toEqual([]);
    expect(farewellLines("  \n", "id", 30, "npm start --")).toEqual(["Resume this session: npm start -- --resume id"]);
  });
});

describe("enterAltScreen", () => {
  const capture = () => {
    const out = new PassThrough();
    let bytes = "";
    out.on("data", (d: Buffer) => (bytes += d.toString()));
    return { stream: out as unknown as NodeJS.WriteStream, bytes: () => bytes };
  };

  it("asks for mouse-wheel reports with the alternate screen and turns them off when leaving, once", async () => {
    const out = capture();
    const alt = enterAltScreen(out.stream, { mouse: true });
    alt.leave();
    alt.leave();
    await new Promise((r) => setImmediate(r));
    const b = out.bytes();
    expect(b.indexOf("\u001b[?1049h")).toBeLessThan(b.indexOf(MOUSE_ON));
    expect(b.indexOf(MOUSE_OFF)).toBeGreaterThan(b.indexOf(MOUSE_ON));
    expect(b.indexOf(MOUSE_OFF)).toBeLessThan(b.indexOf("\u001b[?1049l"));
    expect(b.split("\u001b[?1049l").length).toBe(2);
  });

  it("leaves the mouse to the terminal when mouse is off", async () => {
    const out = capture();
    enterAltScreen(out.stream, { mouse: false }).leave();
    await new Promise((r) => setImmediate(r));
    expect(out.bytes()).not.toContain("\u001b[?1000h");
    expect(out.bytes()).not.toContain("\u001b[?1000l");
  });
});
