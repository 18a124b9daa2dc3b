/**
 * vitest.config.ts applies scripts/ink-swaps.mjs as the bundle does: the Ink that a screen test
 * renders measures, wraps and writes with this project's files (scripts/ink-*.js,
 * scripts/string-width-cache.js), not Ink's own. Each swapped file exports a counter Ink's own
 * file does not have; rendering through ink-testing-library has to move it.
 */
import { join } from "node:path";
import { Box, Text } from "ink";
import { render } from "ink-testing-library";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";

const nm = (...path: string[]) => join(process.cwd(), "node_modules", ...path);

describe("vitest runs the swapped Ink files (vitest.config.ts, scripts/ink-swaps.mjs)", () => {
  it("Ink's measureText, wrapText and string-width are this project's bounded ones, and Ink uses them", async () => {
    const measure = (await import(nm("ink", "build", "measure-text.js"))) as { measuredTexts?: () => number };
    const wrap = (await import(nm("ink", "build", "wrap-text.js"))) as { wrappedTexts?: () => number };
    const width = (await import(nm("string-width", "index.js"))) as { __inkWidthsHeld?: () => number };
    const nested = (await import(nm("wrap-ansi", "node_modules", "string-width", "index.js"))) as { __inkWidthsHeld?: () => number };
    expect(typeof measure.measuredTexts).toBe("function");
    expect(typeof wrap.wrappedTexts).toBe("function");
    expect(typeof width.__inkWidthsHeld).toBe("function");
    expect(typeof nested.__inkWidthsHeld).toBe("function");

    const [measured, wrapped] = [measure.measuredTexts!(), wrap.wrappedTexts!()];
    const { lastFrame, unmount } = render(
      <Box width={12}>
        <Text>a swapped row, wrapped at twelve — 漢字 {String(Date.now() % 1000)}</Text>
      </Box>,
    );
    expect(lastFrame()).toContain("a swapped");
    unmount();
    expect(measure.measuredTexts!()).toBeGreaterThan(measured);
    expect(wrap.wrappedTexts!()).toBeGreaterThan(wrapped);
  });

  it("the string-width our own components import is the swapped one (one module with the bundle's cache)", async () => {
    const width = (await import(nm("string-width", "index.js"))) as { default: (s: string) => number; __inkWidthsHeld: () => number };
    expect(stringWidth).toBe(width.default);
    const held = width.__inkWidthsHeld();
    expect(stringWidth(`漢字 ${held} \u001b[31mred\u001b[39m`)).toBe(`漢字 ${held} red`.length + 2);
    expect(width.__inkWidthsHeld()).toBe(held + 1);
  });
});
