import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown } from "./parse-markdown.js";

describe("parseInline", () => {
  it("reads bold, italic, code and links", () => {
    expect(parseInline("a **bold** b *it* `code` [site](https://x.y)")).toEqual([
      { text: "a " },
      { text: "bold", bold: true },
      { text: " b " },
      { text: "it", italic: true },
      { text: " " },
      { text: "code", code: true },
      { text: " " },
      { text: "site", link: "https://x.y" },
    ]);
  });
  it("styles code inside bold and leaves unclosed markers as text", () => {
    expect(parseInline("**see `f()`**")).toEqual([{ text: "see ", bold: true }, { text: "f()", bold: true, code: true }]);
    expect(parseInline("2 * 3 and **open")).toEqual([{ text: "2 * 3 and **open" }]);
    expect(parseInline("snake_case_name")).toEqual([{ text: "snake_case_name" }]);
  });
});

describe("parseMarkdown", () => {
  it("reads headings, bullets, numbered items, quotes, rules and paragraphs", () => {
    const blocks = parseMarkdown("# Title\n\n- one\n  - nested\n2. two\n> quoted\n---\nplain **x**");
    expect(blocks.map((b) => b.type)).toEqual(["heading", "blank", "bullet", "bullet", "bullet", "quote", "rule", "para"]);
    expect(blocks[0]).toMatchObject({ level: 1, spans: [{ text: "Title" }] });
    expect(blocks[3]).toMatchObject({ indent: 1, marker: "-" });
    expect(blocks[4]).toMatchObject({ marker: "2." });
  });
  it("keeps fenced code verbatim, even when the fence is still open", () => {
    expect(parseMarkdown("```ts\nconst a = **1**;\n```\nafter")).toEqual([
      { type: "code", lang: "ts", lines: ["const a = **1**;"] },
      { type: "para", spans: [{ text: "after" }] },
    ]);
    expect(parseMarkdown("```\nstreaming")).toEqual([{ type: "code", lang: undefined, lines: ["streaming"] }]);
  });
  it("collapses blank runs and trims blank edges", () => {
    expect(parseMarkdown("\n\na\n\n\n\nb\n\n").map((b) => b.type)).toEqual(["para", "blank", "para"]);
  });
});
