/** The activity a child's row shows: the last words of its text, read from the end of a long answer. */
import { describe, expect, it } from "vitest";
import { childActivity, lastWords } from "./ChildRow.js";
import { startChild } from "../state/child-reducer.js";
import type { ChildView } from "../state/transcript-types.js";

const withText = (text: string): ChildView => ({ ...startChild({ childId: "20261204-100000-ab12cd", prompt: "p", resumed: false, at: 0 }), entries: [{ kind: "text", text }] }) as ChildView;
const collapsed = (text: string) => text.replace(/\s+/g, " ").trim();

describe("childActivity / lastWords", () => {
  it("shows the last 79 characters of the whole text, whitespace made single, however long the answer", () => {
    const words = ["login", "flow", "\n\n", "  ", "verify(req)", "\t", "redirect"];
    let text = "";
    for (let i = 0; i < 3000; i++) {
      text += words[(i * 7) % words.length] + (i % 5 ? " " : "\n   \n");
      const whole = collapsed(text);
      expect(childActivity(withText(text)), `after ${i} words`).toBe(whole.length > 80 ? `…${whole.slice(-79)}` : whole);
    }
  });

  it("reads the whole text when its last 400 characters hold too few words (mostly whitespace)", () => {
    const text = `the start of the answer ${"x ".repeat(30)}${" ".repeat(2000)}${"\n".repeat(300)}end`;
    expect(lastWords(text)).toBe(collapsed(text));
    expect(childActivity(withText(text))).toBe(`…${collapsed(text).slice(-79)}`);
  });
});
