/**
 * ItemRows keys its rows by their text (layout rows that slide keep their nodes): when a streaming answer's tail or the
 * history window moves by a row, each row that stays is the same Ink node, its text never set again (keyed by place,
 * every node took the text of the row below it, and Yoga measured each again).
 */
import { Box, type DOMElement } from "ink";
import { cleanup, render } from "ink-testing-library";
import { createRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { ItemRows, rowKeys } from "./ItemRows.js";

afterEach(() => cleanup());

/** The Ink nodes under `box`, each with the text it shows ("" for an empty row's box). */
function nodes(box: DOMElement): { node: DOMElement; text: string }[] {
  const textOf = (n: DOMElement): string => n.childNodes.map((c) => ("nodeValue" in c ? c.nodeValue : textOf(c as DOMElement))).join("");
  return box.childNodes.map((n) => ({ node: n as DOMElement, text: textOf(n as DOMElement) }));
}

describe("ItemRows", () => {
  it("keeps the node of every row that stays when the rows slide up by one", () => {
    const ref = createRef<DOMElement>();
    const view = (rows: string[]) => (
      <Box ref={ref} flexDirection="column" width={40}>
        <ItemRows rows={rows} />
      </Box>
    );
    const before = ["first row", "", "second row", "", "third row"];
    const after = ["", "second row", "", "third row", "fourth row"];
    const { rerender, lastFrame } = render(view(before));
    const was = nodes(ref.current!);
    expect(was.map((n) => n.text)).toEqual(before);
    const textNodes = was.map((n) => n.node.childNodes[0]);
    rerender(view(after));
    const now = nodes(ref.current!);
    expect(now.map((n) => n.text)).toEqual(after);
    expect(lastFrame()!.split("\n").map((r) => r.trimEnd())).toEqual(after);
    for (const text of ["second row", "third row"]) {
      const old = was.find((n) => n.text === text)!;
      expect(now.find((n) => n.text === text)!.node).toBe(old.node);
      // …and its text node is the one it had, holding the same text.
      expect(old.node.childNodes[0]).toBe(textNodes[was.indexOf(old)]);
    }
  });

  it("gives rows of the same text keys of their own", () => {
    expect(rowKeys(["a", "", "b", "", "a"])).toEqual(["a", "", "b", "\u00001", "a\u00001"]);
    expect(new Set(rowKeys(["", "", "", "x", "x"])).size).toBe(5);
  });
});
