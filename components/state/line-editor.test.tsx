import { describe, expect, it } from "vitest";
import { EMPTY_LINE, isPlainTyping, lineOf, reduceLine, splitKeys, type LineEffect, type LineState } from "./line-editor.js";

/** Applies every key of each chunk; returns the final state and the effects in order. */
function type(start: LineState, ...chunks: string[]): { state: LineState; effects: LineEffect[] } {
  let state = start;
  const effects: LineEffect[] = [];
  for (const chunk of chunks) {
    for (const key of splitKeys(chunk)) {
      const step = reduceLine(state, key);
      state = step.state;
      if (step.effect) effects.push(step.effect);
    }
  }
  return { state, effects };
}

/** The text with `|` at the cursor. */
const show = (s: LineState) => `${s.value.slice(0, s.cursor)}|${s.value.slice(s.cursor)}`;
const edit = (start: string, ...chunks: string[]) => show(type(lineOf(start), ...chunks).state);

describe("splitKeys", () => {
  it("splits one chunk into every key it holds", () => {
    expect(splitKeys("\u007f\u007f\u007f")).toEqual([{ kind: "backspace" }, { kind: "backspace" }, { kind: "backspace" }]);
    expect(splitKeys("\u001b[D\u001b[D\u001b[D").map((k) => k.kind)).toEqual(["left", "left", "left"]);
    expect(splitKeys("ab\u007fc\u001b[Dd")).toEqual([{ kind: "insert", text: "ab" }, { kind: "backspace" }, { kind: "insert", text: "c" }, { kind: "left" }, { kind: "insert", text: "d" }]);
  });

  it("knows home/end/delete in their several spellings, word moves and Ctrl keys", () => {
    const kinds = (raw: string) => splitKeys(raw).map((k) => k.kind);
    expect(kinds("\u001b[H\u001bOH\u001b[1~\u001b[F\u001bOF\u001b[4~\u001b[3~")).toEqual(["home", "home", "home", "end", "end", "end", "delete"]);
    expect(kinds("\u001b[1;5D\u001b[1;3C\u001bb\u001bf\u001b\u001b[D")).toEqual(["wordLeft", "wordRight", "wordLeft", "wordRight", "wordLeft"]);
    expect(kinds("\u0001\u0005\u0015\u000b\u0017\u0003\b")).toEqual(["home", "end", "killStart", "killEnd", "killWordBack", "interrupt", "backspace"]);
    expect(kinds("\u001b[A\u001b[B\u001b[200~\u001b[201~")).toEqual(["up", "down", "pasteStart", "pasteEnd"]);
  });

  it("ignores keys that are not editing (Shift-Tab, F-keys) and never turns them into letters; a Tab and a lone Esc are keys of their own", () => {
    expect(splitKeys("\u001b")).toEqual([{ kind: "escape" }]);
    expect(splitKeys("\u001b\u001b")).toEqual([{ kind: "escape" }]);
    expect(reduceLine(lineOf("ab"), { kind: "escape" })).toEqual({ state: lineOf("ab"), effect: "escape" });
    expect(splitKeys("\u001b[Z")).toEqual([]);
    expect(splitKeys("\t")).toEqual([{ kind: "tab" }]);
    expect(splitKeys("a\tb")).toEqual([{ kind: "insert", text: "a" }, { kind: "tab" }, { kind: "insert", text: "b" }]);
    expect(splitKeys("\u001b[15~\u001bOP")).toEqual([]);
  });

  it("every CR or LF is an Enter of its own, wherever it is in the chunk; CRLF is one", () => {
    expect(splitKeys("a\rb\r")).toEqual([{ kind: "insert", text: "a" }, { kind: "newline" }, { kind: "insert", text: "b" }, { kind: "newline" }]);
    expect(splitKeys("x\r\n")).toEqual([{ kind: "insert", text: "x" }, { kind: "newline" }]);
    expect(splitKeys("x\n\ny")).toEqual([{ kind: "insert", text: "x" }, { kind: "newline" }, { kind: "newline" }, { kind: "insert", text: "y" }]);
  });

  it("isPlainTyping: text (with line breaks or paste markers), not commands", () => {
    expect(isPlainTyping(splitKeys("hello"))).toBe(true);
    expect(isPlainTyping(splitKeys("a\rb"))).toBe(true);
    expect(isPlainTyping(splitKeys("\r"))).toBe(false);
    expect(isPlainTyping(splitKeys("\u001b[A"))).toBe(false);
    expect(isPlainTyping(splitKeys("a\u007f"))).toBe(false);
  });
});

describe("reduceLine", () => {
  it("types a line break with Alt-Enter, Shift-Enter (kitty and modifyOtherKeys spellings) and backslash-Enter, none of which submits", () => {
    expect(type(lineOf("one"), "\u001b\r", "two")).toEqual({ state: lineOf("one\ntwo"), effects: [] });
    expect(type(lineOf("one"), "\u001b[13;2u", "two")).toEqual({ state: lineOf("one\ntwo"), effects: [] });
    expect(type(lineOf("one"), "\u001b[27;2;13~", "two")).toEqual({ state: lineOf("one\ntwo"), effects: [] });
    expect(type(lineOf("one\\"), "\r", "two")).toEqual({ state: lineOf("one\ntwo"), effects: [] });
    // Then a plain Enter sends the whole text.
    expect(type(lineOf("one\\"), "\r", "two", "\r")).toEqual({ state: lineOf("one\ntwo"), effects: ["submit"] });
    expect(type(lineOf("one"), "\t").effects).toEqual(["tab"]);
  });

  it("applies every key of a chunk: three DELs delete three characters, three ← move three places", () => {
    expect(edit("hello", "\u007f\u007f\u007f")).toBe("he|");
    expect(edit("hello", "\u001b[D\u001b[D\u001b[D")).toBe("he|llo");
    expect(edit("hello", "\u001b[D\u001b[D\u001b[D", "XY")).toBe("heXY|llo");
    expect(edit("hello", "\u001b[D\u001b[D", "\u001b[3~")).toBe("hel|o");
  });

  it("home/end and Ctrl-A/E move to the ends of the line; Ctrl-U/K delete to them", () => {
    expect(edit("one two", "\u0001")).toBe("|one two");
    expect(edit("one two", "\u001b[H", "\u0005")).toBe("one two|");
    expect(edit("one two", "\u001b[D\u001b[D\u001b[D", "\u0015")).toBe("|two");
    expect(edit("one two", "\u001b[D\u001b[D\u001b[D", "\u000b")).toBe("one |");
    // On a multi-line draft they act on the cursor's line.
    expect(edit("ab\ncd", "\u0001")).toBe("ab\n|cd");
    expect(edit("ab\ncd", "\u0015")).toBe("ab\n|");
  });

  it("Ctrl-W deletes the previous word; word moves jump over words; none of them inserts a letter", () => {
    expect(edit("git commit -m", "\u0017")).toBe("git commit |");
    expect(edit("git commit   ", "\u0017")).toBe("git |");
    expect(edit("foo.bar baz", "\u001b[1;5D")).toBe("foo.bar |baz");
    expect(edit("foo.bar baz", "\u001b[1;5D\u001b[1;5D")).toBe("foo.|bar baz");
    expect(edit("foo.bar baz", "\u001b[1;5D\u001b[1;5D\u001b[1;3D", "\u001bf")).toBe("foo|.bar baz");
    expect(edit("foo bar", "\u001b\u007f")).toBe("foo |");
    expect(edit("foo bar", "\u001bb", "\u001b\u007f")).toBe("|bar");
  });

  it("moves and deletes over a surrogate pair as one character", () => {
    expect(edit("a😀", "\u007f")).toBe("a|");
    expect(edit("a😀b", "\u001b[D\u001b[D")).toBe("a|😀b");
  });

  it("Enter submits wherever it is in a chunk (as if typed key by key); inside a bracketed paste line breaks and Tabs stay in the text", () => {
    expect(type(EMPTY_LINE, "ask\r")).toEqual({ state: lineOf("ask"), effects: ["submit"] });
    // The owner clears the box on submit; here the text stays, so the effects show where each Enter fell.
    expect(type(EMPTY_LINE, "one\rtwo\r")).toMatchObject({ state: { value: "onetwo" }, effects: ["submit", "submit"] });
    expect(type(EMPTY_LINE, "one\t")).toMatchObject({ state: { value: "one" }, effects: ["tab"] });
    const pasted = type(EMPTY_LINE, "\u001b[200~", "one\rtwo\r\tthree", "\u001b[201~");
    expect(pasted).toEqual({ state: { value: "one\ntwo\n  three", cursor: 15, pasting: false }, effects: [] });
    expect(type(pasted.state, "\r").effects).toEqual(["submit"]);
  });

  it("↑/↓ and Ctrl-C are left to the owner and change nothing", () => {
    expect(type(lineOf("draft"), "\u001b[A", "\u0003", "\u001b[B")).toEqual({ state: lineOf("draft"), effects: ["up", "interrupt", "down"] });
  });
});
