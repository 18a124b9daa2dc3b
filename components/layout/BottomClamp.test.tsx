import { Box, Text } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { BottomClamp } from "./BottomClamp.js";

const rows = (n: number, tag: string) => Array.from({ length: n }, (_, i) => <Text key={i}>{`${tag} ${i}`}</Text>);

function Frame({ n, tag, cap = 6 }: { n: number; tag: string; cap?: number }) {
  return (
    <Box flexDirection="column">
      <BottomClamp maxRows={cap}>{rows(n, tag)}</BottomClamp>
      <Text>BOTTOM</Text>
    </Box>
  );
}

describe("BottomClamp", () => {
  it("never taller than maxRows: the top rows are cut, the newest stay", () => {
    const { lastFrame } = render(<Frame n={10} tag="row" />);
    expect(lastFrame()!.split("\n")).toEqual(["row 4", "row 5", "row 6", "row 7", "row 8", "row 9", "BOTTOM"]);
  });

  it("takes its content's height in the very frame the content shrinks (no frame of empty rows)", () => {
    const app = render(<Frame n={5} tag="old" />);
    expect(app.lastFrame()!.split("\n")).toHaveLength(6);
    const before = app.frames.length;
    app.rerender(<Frame n={1} tag="new" />);
    const after = app.frames.slice(before);
    expect(after.length).toBeGreaterThan(0);
    for (const frame of after) expect(frame.split("\n")).toEqual(["new 0", "BOTTOM"]);
    app.rerender(<Frame n={0} tag="none" />);
    expect(app.lastFrame()).toBe("BOTTOM");
  });

  it("a smaller cap applies in the frame that brings it (a terminal made shorter)", () => {
    const app = render(<Frame n={10} tag="row" />);
    const before = app.frames.length;
    app.rerender(<Frame n={10} tag="row" cap={3} />);
    for (const frame of app.frames.slice(before)) expect(frame.split("\n")).toEqual(["row 7", "row 8", "row 9", "BOTTOM"]);
  });
});
