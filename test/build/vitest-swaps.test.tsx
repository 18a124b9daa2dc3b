/**
 * vitest.config.ts applies scripts/ink-swaps.mjs as the bundle does: the Ink that a screen test
 * renders measures with this project's string-width (scripts/string-width-cache.js), not the
 * package's own. The swapped file exports a counter the package's own does not have; rendering
 * through ink-testing-library has to move it. Ink's own files are not swapped (the frame's needs of
 * Ink's internals go through components/terminal/ink-seam.ts).
 */
import { join } from "node:path";
import { Box, Text } from "ink";
import { render } from "ink-testing-library";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";

const nm = (...path: string[]) => join(process.cwd(), "node_modules", ...path);

describe("vitest runs the swapped files (vitest.config.ts, scripts/ink-swaps.mjs)", () => {
  it("string-width is this project's bounded one (wrap-ansi's own copy too), and Ink uses it", async () => {
    const width = (await import(nm("string-width", "index.js"))) as { __inkWidthsHeld?: () => number };
    const nested = (await import(nm("wrap-ansi", "node_modules", "string-width", "index.js"))) as { __inkWidthsHeld?: () => number };
    expect(typeof width.__inkWidthsHeld).toBe("function");
    expect(typeof nested.__inkWidthsHeld).toBe("function");

    const held = width.__inkWidthsHeld!();
    const { lastFrame, unmount } = render(
      <Box width={12}>
        <Text>a swapped row, wrapped at twelve — 漢字 {String(Date.now() % 1000)}</Text>
      </Box>,
    );
    expect(lastFrame()).toContain("a swapped");
    unmount();
    expect(width.__inkWidthsHeld!()).toBeGreaterThan(held);
  });

  it("Ink's own files are Ink's (no swap of Ink's output, measure-text or wrap-text)", async () => {
    const measure = (await import(nm("ink", "build", "measure-text.js"))) as Record<string, unknown>;
    const wrap = (await import(nm("ink", "build", "wrap-text.js"))) as Record<string, unknown>;
    expect(Object.keys(measure)).toEqual(["default"]);
    expect(Object.keys(wrap)).toEqual(["default"]);
  });

  it("the string-width our own components import is the swapped one (one module with the bundle's cache)", async () => {
    const width = (await import(nm("string-width", "index.js"))) as { default: (s: string) => number; __inkWidthsHeld: () => number };
    expect(stringWidth).toBe(width.default);
    const held = width.__inkWidthsHeld();
    expect(stringWidth(`漢字 ${held} \u001b[31mred\u001b[39m`)).toBe(`漢字 ${held} red`.length + 2);
    expect(width.__inkWidthsHeld()).toBe(held + 1);
  });
});
