/** A block quote keeps its left rule on every row it wraps to. */
import { Box } from "ink";
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "./Markdown.js";
import { stripAnsi } from "../testing/wait-for-frame.js";

afterEach(() => cleanup());

describe("Markdown block quote", () => {
  it("draws the rule at the start of each wrapped row, with the words beside it", () => {
    const text = "Before.\n\n> The tests for bundle, replaces and ink are in components/ink-stream.test.ts (inkStream, line 23).\n\nAfter.";
    const { lastFrame } = render(
      <Box width={40}>
        <Markdown text={text} width={40} />
      </Box>,
    );
    const rows = stripAnsi(lastFrame() ?? "").split("\n");
    const quote = rows.filter((r) => /tests|bundle|replaces|components|inkStream|line 23/.test(r));
    expect(quote.length).toBeGreaterThan(2);
    for (const row of quote) expect(row, row).toMatch(/^│ +\S/);
    expect(rows.some((r) => r.startsWith("After."))).toBe(true);
  });
});
