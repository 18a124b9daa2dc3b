/**
 * What the seam takes from Ink once the frame owner holds the root (components/terminal/ink-seam.ts,
 * takeOverCommits): Ink's renderer (its Output) no longer draws after a commit, and Yoga measures
 * text nodes through the seam's measure, not Ink's measureText/wrapText.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Box, render, Text } from "ink";
import { render as inkAlone, cleanup } from "ink-testing-library";
import { useEffect, useState, type ReactElement } from "react";
import { FakeTerminal, fakeStdin } from "../testing/fake-terminal.js";
import { ownFullscreenFrames, type FrameOwner } from "./frame-owner.js";
import { measuredChars, measuredTexts } from "./ink-seam.js";

// Ink draws only a final frame when it believes it runs in CI.
vi.hoisted(() => {
  for (const key of Object.keys(process.env)) if (key === "CI" || key === "CONTINUOUS_INTEGRATION" || key.startsWith("CI_")) delete process.env[key];
});

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ink's Output class, the module Ink's renderer draws with (the same instance: vitest inlines Ink). */
type OutputClass = { prototype: { get: () => unknown } };
const inkOutput = async () => ((await import(pathToFileURL(join(process.cwd(), "node_modules", "ink", "build", "output.js")).href)) as { default: OutputClass }).default;

/** A counter that changes every 40 ms until `ticks`, each commit with a new text (wrapped at 12 columns). */
function Ticking({ ticks }: { ticks: number }) {
  const [n, setN] = useState(0);
  useEffect(() => {
    if (n >= ticks) return;
    const t = setTimeout(() => setN(n + 1), 40);
    return () => clearTimeout(t);
  }, [n, ticks]);
  return (
    <Box flexDirection="column" width={12}>
      <Text>tick {n} of a text wider than its box</Text>
      <Text color="green">{n < ticks ? `working ${n}` : "done"}</Text>
    </Box>
  );
}

let owner: FrameOwner | undefined;
afterEach(() => {
  owner?.stop();
  owner = undefined;
  cleanup();
});

function owned(term: FakeTerminal, view: ReactElement) {
  owner = ownFullscreenFrames(term as unknown as NodeJS.WriteStream, { scroll: true, maxFps: 30 });
  return render(
    <>
      {view}
      {owner.probe}
    </>,
    { stdout: owner.inkStdout, stdin: fakeStdin() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false },
  );
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 100 && !ok(); i++) await settle(40);
};

describe("the seam's take-over of Ink's commits", () => {
  it("Ink's Output draws no frame while the frame owner draws them (only our code writes what is seen)", async () => {
    const get = vi.spyOn((await inkOutput()).prototype, "get");
    try {
      // The spy is on the Output Ink's renderer uses: Ink alone calls it for its frames.
      const alone = inkAlone(<Ticking ticks={2} />);
      await until(() => alone.lastFrame()!.includes("done"));
      expect(get.mock.calls.length).toBeGreaterThan(0);
      alone.unmount();
      get.mockClear();

      const term = new FakeTerminal(40, 10);
      const app = owned(term, <Ticking ticks={8} />);
      // Ink's first commit is laid out and drawn by Ink (into the stream that drops its writes)
      // before the owner is handed the root; every commit after it is drawn by ours alone.
      expect(term.writes).toHaveLength(1);
      get.mockClear();
      await until(() => term.screen.lines().some((l) => l.includes("done")));
      expect(term.screen.lines().map((l) => l.trimEnd())).toContain("done");
      expect(term.writes.length).toBeGreaterThan(4);
      expect(get).not.toHaveBeenCalled();
      app.unmount();
    } finally {
      get.mockRestore();
    }
  });

  it("Yoga measures the text nodes through the seam, laid out as Ink's own measure lays them out", async () => {
    const scene = (n: number) => (
      <Box flexDirection="column" width={30}>
        <Box width={12}>
          <Text>a row wrapped at twelve, {n} — 漢字 🙂 here</Text>
        </Box>
        <Box width={10}>
          <Text wrap="truncate-middle">a truncated middle {n} of a long text</Text>
        </Box>
        <Box>
          <Box width={8} flexShrink={0}>
            <Text>side {n} by side</Text>
          </Box>
          <Text wrap="truncate">the other side of row {n} that is cut</Text>
        </Box>
      </Box>
    );
    const alone = inkAlone(scene(7));
    const expected = alone.lastFrame()!.split("\n").map((l) => l.trimEnd());
    alone.unmount();

    const before = measuredTexts();
    const term = new FakeTerminal(40, 12);
    const app = owned(term, scene(6));
    await settle(50);
    app.rerender(
      <>
        {scene(7)}
        {owner!.probe}
      </>,
    );
    await settle(80);
    // Without the take-over nothing calls the seam's measure, and its cache stays as it was.
    expect(measuredTexts()).toBeGreaterThan(before);
    expect(term.screen.lines().map((l) => l.trimEnd()).slice(0, expected.length)).toEqual(expected);
    app.unmount();
  });

  it("holds a bounded number of measured texts however many distinct texts are laid out", async () => {
    const many = (from: number) => (
      <Box flexDirection="column" width={30} height={5} overflow="hidden">
        {Array.from({ length: 2500 }, (_, i) => (
          <Text key={i}>row {from + i}</Text>
        ))}
      </Box>
    );
    const term = new FakeTerminal(40, 10);
    const app = owned(term, many(0));
    await settle(50);
    for (const from of [2500, 5000]) {
      app.rerender(
        <>
          {many(from)}
          {owner!.probe}
        </>,
      );
      await settle(80);
    }
    expect(term.screen.lines().join("\n")).toMatch(/row 5\d{3}/);
    // The last frame's 2,500 texts were measured by the seam (and kept), the 7,500 of all three not.
    expect(measuredTexts()).toBeGreaterThanOrEqual(2500);
    expect(measuredTexts()).toBeLessThanOrEqual(4000);
    app.unmount();
  });

  it("holds a bounded number of characters of measured texts however many distinct long texts are laid out", async () => {
    const long = (from: number) => (
      <Box flexDirection="column" width={30} height={5} overflow="hidden">
        {Array.from({ length: 100 }, (_, i) => (
          <Text key={i}>{`text ${from + i} `.padEnd(3_000, "x")}</Text>
        ))}
      </Box>
    );
    const term = new FakeTerminal(40, 10);
    const app = owned(term, long(0));
    await settle(50);
    // 300 distinct texts of 3,000 characters: 900,000, where the cache may hold two generations of 200,000
    for (const from of [100, 200]) {
      app.rerender(
        <>
          {long(from)}
          {owner!.probe}
        </>,
      );
      await settle(80);
    }
    expect(term.screen.lines().join("\n")).toMatch(/text 2\d\d /);
    expect(measuredChars()).toBeLessThanOrEqual(2 * 200_000 + 3_000);
    app.unmount();
  });
});
