/** stableBlocks: a re-parse of a streaming text keeps the unchanged blocks' objects and keys; the screen is the same. */
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { Markdown } from "../views/Markdown.js";
import { parseMarkdown } from "./parse-markdown.js";
import { stableBlocks, type KeyedBlock } from "./stable-blocks.js";

const parse = (prev: KeyedBlock[], text: string) => stableBlocks(prev, parseMarkdown(text));

describe("stableBlocks", () => {
  it("a token added to the last line: every earlier block keeps its object and key", () => {
    const a = parse([], "# Title\n\n- one\n- two\n\nThe answer so");
    const b = parse(a, "# Title\n\n- one\n- two\n\nThe answer so far");
    expect(b.length).toBe(a.length);
    for (let i = 0; i < a.length - 1; i++) {
      expect(b[i]!.block).toBe(a[i]!.block);
      expect(b[i]!.key).toBe(a[i]!.key);
    }
    expect(b.at(-1)!.block).not.toBe(a.at(-1)!.block);
    expect(b.at(-1)!.key).not.toBe(a.at(-1)!.key);
  });

  it("a block scrolling off the top does not change the keys or objects of those below it", () => {
    const a = parse([], "First paragraph.\n\n```ts\nconst x = 1;\n```\n\nSecond paragraph.\n\nThird");
    const b = parse(a, "```ts\nconst x = 1;\n```\n\nSecond paragraph.\n\nThird one");
    const byKey = new Map(a.map((k) => [k.key, k.block]));
    const kept = b.filter((k) => byKey.get(k.key) === k.block);
    // The code block, a blank and the second paragraph are the same objects under the same keys.
    expect(kept.map((k) => k.block.type)).toEqual(["code", "blank", "para", "blank"]);
    expect(new Set(b.map((k) => k.key)).size).toBe(b.length);
  });

  it("repeated blocks get distinct keys", () => {
    const k = parse([], "same\n\nsame\n\nsame");
    expect(new Set(k.map((x) => x.key)).size).toBe(k.length);
  });
});

describe("Markdown with stable blocks draws what a fresh render draws", () => {
  it("at every step of a streamed answer", async () => {
    const text = Array.from({ length: 12 }, (_, i) =>
      i % 3 === 1 ? `- item ${i}\n- item ${i}b\n\n` : i % 3 === 2 ? "```ts\nconst a = 1;\n```\n\n" : `Paragraph ${i} with **bold** and \`code\`, long enough to wrap at forty columns.\n\n`,
    ).join("");
    const live = render(<Markdown text="" width={40} />);
    for (let end = 7; end <= text.length; end += 7) {
      const chunk = text.slice(0, end);
      live.rerender(<Markdown text={chunk} width={40} />);
      const fresh = render(<Markdown text={chunk} width={40} />);
      expect(live.lastFrame()).toBe(fresh.lastFrame());
      fresh.unmount();
    }
    live.unmount();
  });
});
