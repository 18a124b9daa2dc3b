import { Text, useInput, type Key } from "ink";
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { waitUntil } from "../testing/wait-for-frame.js";
import { perKey, splitInput } from "./per-key.js";

afterEach(() => cleanup());

/** A key as compared here: its input and the names of its flags that are set. */
const show = (input: string, key: Key) => `${JSON.stringify(input)} ${Object.keys(key).filter((k) => key[k as keyof Key] === true).sort().join("+")}`;

/** Renders a useInput handler (wrapped by `wrap`) and returns what it saw. */
function listen(wrap: (h: (input: string, key: Key) => void) => (input: string, key: Key) => void) {
  const seen: string[] = [];
  function Listener() {
    useInput(wrap((input, key) => seen.push(show(input, key))));
    return <Text>listening</Text>;
  }
  return { app: render(<Listener />), seen };
}

describe("perKey", () => {
  // Every kind of character ink can leave glued in one input (it splits escape sequences off itself); not CR then LF (one Enter).
  const singles = ["a", "Z", "7", " ", "é", "😀", "\n", "\r", "\t", "\b", "\u007f", "\u0001", "\u0015", "\u0017"];

  it("gives each key of a run the input and flags ink's useInput gives that key arriving alone", async () => {
    const alone = listen((h) => h);
    for (const ch of singles) alone.app.stdin.write(ch);
    await waitUntil(() => alone.seen.length === singles.length, { what: "each key alone" });
    const glued = listen(perKey);
    glued.app.stdin.write(singles.join(""));
    await waitUntil(() => glued.seen.length >= singles.length, { what: "the run, key by key" });
    expect(glued.seen).toEqual(alone.seen);
  });

  it("a reason typed with its Enter and the next key in one chunk: the letters, then Enter, then the key", async () => {
    const plain = listen((h) => h);
    plain.app.stdin.write("please\rx");
    await waitUntil(() => plain.seen.length === 1);
    expect(plain.seen).toEqual(['"please\\rx" ']); // ink alone: one input, no Enter
    const { app, seen } = listen(perKey);
    app.stdin.write("please\rx");
    await waitUntil(() => seen.length === 8, { what: "eight keys" });
    expect(seen).toEqual([..."please"].map((c) => `"${c}" `).concat(['"\\r" return', '"x" ']));
  });

  it("leaves alone an input ink recognised as one key, a single character, and CRLF is one Enter", () => {
    const none = splitInput("a", {} as Key);
    expect(none).toEqual([{ input: "a", key: {} }]);
    const up = { upArrow: true } as Key;
    expect(splitInput("", up)).toEqual([{ input: "", key: up }]);
    expect(splitInput("x\r\ny", {} as Key).map((k) => show(k.input, k.key))).toEqual(['"x" ', '"\\r" return', '"y" ']);
  });
});
