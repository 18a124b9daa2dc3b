/**
 * The views are told what waits for an approval by props, not by a context (issue #41 item 6): a
 * child row or pane given `waiting` shows it with no provider around, and LiveItems hands its
 * `waiting` sets down to the panes and rows it draws.
 */
import { Box } from "ink";
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { stripAnsi } from "../testing/wait-for-frame.js";
import type { ChildView, TranscriptItem } from "../state/transcript-types.js";
import { ChildRow } from "./ChildRow.js";
import { LiveItems } from "./Transcript.js";
import { runningChild, taskItem } from "../testing/children.js";

afterEach(() => cleanup());

const NOW = 1_000_000;

const child = (i: number): ChildView => runningChild(i, NOW, `child ${i} reads the login code`);

const NO_CALLS = { calls: new Set<string>(), main: false };

describe("a child waiting for an approval, told by props", () => {
  it("a ChildRow given `waiting` is marked and says so, with no provider around it", () => {
    const plain = stripAnsi(render(<ChildRow child={child(1)} now={NOW} width={100} />).lastFrame()!);
    const waiting = stripAnsi(render(<ChildRow child={child(1)} now={NOW} width={100} waiting />).lastFrame()!);
    expect(plain).not.toContain("waiting for approval");
    expect(plain.startsWith("? ")).toBe(false);
    expect(waiting).toContain("waiting for approval");
    expect(waiting.startsWith("? ")).toBe(true);
  });

  it("LiveItems hands its waiting children to the rows it draws (many children: one row each)", () => {
    const kids = Array.from({ length: 8 }, (_, i) => child(i));
    const live: TranscriptItem[] = kids.map(taskItem);
    const draw = (waiting: ReadonlySet<string>) =>
      stripAnsi(
        render(
          <Box width={100} flexDirection="column">
            <LiveItems live={live} now={NOW} columns={100} rows={12} waiting={{ children: waiting, calls: NO_CALLS }} />
          </Box>,
        ).lastFrame()!,
      ).split("\n");
    const asking = kids[2]!.childId.slice(-6);
    const row = draw(new Set([kids[2]!.childId])).find((r) => r.includes(asking));
    expect(row).toBeDefined();
    expect(row).toContain("waiting for approval");
    expect(row!.trimStart().startsWith("? ")).toBe(true);
    expect(draw(new Set()).join("\n")).not.toContain("waiting for approval");
  });

  it("LiveItems hands its waiting children to a full pane (double border)", () => {
    const c = child(1);
    const draw = (waiting: ReadonlySet<string>) =>
      stripAnsi(
        render(
          <Box width={80} flexDirection="column">
            <LiveItems live={[taskItem(c)]} now={NOW} columns={80} rows={20} waiting={{ children: waiting, calls: NO_CALLS }} />
          </Box>,
        ).lastFrame()!,
      );
    expect(draw(new Set()).trimStart().startsWith("╭")).toBe(true);
    const asking = draw(new Set([c.childId]));
    expect(asking.trimStart().startsWith("╔")).toBe(true);
    expect(asking).toContain("waiting for approval");
  });
});
