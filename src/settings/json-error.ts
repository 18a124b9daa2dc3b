/**
 * Where a JSON text first goes wrong, as line and column (a person's editor counts lines, not
 * character offsets), with what was expected there.
 */

/** Line and column (both from 1) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** The first syntax error of `text` ("line 3, column 5: expected …"), or undefined when it is valid JSON. */
export function jsonSyntaxError(text: string): string | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    const { line, column } = lineColumn(text, i);
    const found = i >= text.length ? "the end of the file" : JSON.stringify(text[i]);
    throw new JsonSyntax(`line ${line}, column ${column}: expected ${what}, found ${found}`);
  };
  const str = () => {
    if (text[i] !== '"') fail("a double-quoted string");
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\n") fail('a closing "');
      i += text[i] === "\\" ? 2 : 1;
    }
    if (i >= text.length) fail('a closing "');
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        str();
        ws();
        if (text[i] !== ":") fail("':' after the property name");
        i++;
        value();
        ws();
        if (text[i] === ",") {
          i++;
          ws();
          if (text[i] === "}") fail("another property after ',' (JSON allows no trailing comma)");
          continue;
        }
        if (text[i] === "}") return void i++;
        fail("',' or '}' after the property value");
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ",") {
          i++;
          ws();
          if (text[i] === "]") fail("another value after ',' (JSON allows no trailing comma)");
          continue;
        }
        if (text[i] === "]") return void i++;
        fail("',' or ']' after the value");
      }
    }
    if (c === '"') return str();
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!m) fail("a value (a string, number, object, array, true, false or null)");
    i += m![0].length;
  };
  try {
    value();
    ws();
    if (i < text.length) fail("the end of the file after the value");
    return undefined;
  } catch (e) {
    if (e instanceof JsonSyntax) return e.message;
    throw e;
  }
}

class JsonSyntax extends Error {}

/** JSON.parse, whose error names the line and column of the first mistake. */
export function parseJsonAt(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(jsonSyntaxError(text) ?? (err as Error).message);
  }
}
