/** MCP argument checks by Ajv: problems named where and what, unknown keywords and uncompilable schemas never refuse a call. */
import { expect, it } from "vitest";
import { checkJsonSchema } from "../../src/mcp/json-schema-check.js";

const schema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    text: { type: "string", minLength: 2 },
    mode: { enum: ["fast", "slow"] },
    tags: { type: "array", items: { type: "string" } },
    when: { type: "string", format: "date-time", "x-vendor": true },
    nested: { type: "object", properties: { n: { type: "integer", minimum: 1 } }, required: ["n"] },
  },
  required: ["text"],
  additionalProperties: false,
};

it("names each problem by its path and in words the model can act on", () => {
  const problems = checkJsonSchema(schema, { text: 3, mode: "medium", tags: ["a", 2], nested: { n: 0 }, extra: true });
  expect(problems).toEqual(
    expect.arrayContaining([
      { path: "text", message: "expected string, got integer" },
      { path: "mode", message: 'must be one of "fast", "slow"' },
      { path: "tags[1]", message: "expected string, got integer" },
      { path: "nested.n", message: "must be >= 1" },
      { path: "extra", message: "is not an accepted argument (accepted: text, mode, tags, when, nested)" },
    ]),
  );
  expect(checkJsonSchema(schema, { nested: {} })).toEqual(expect.arrayContaining([{ path: "text", message: "is required" }, { path: "nested.n", message: "is required" }]));
});

it("accepts what fits, unknown keywords and formats included, and checks nothing against a schema it cannot compile", () => {
  expect(checkJsonSchema(schema, { text: "hi", mode: "fast", tags: ["a"], when: "not a date", nested: { n: 2 } })).toEqual([]);
  expect(checkJsonSchema({ type: "object", properties: { a: { $ref: "#/nowhere" } } }, { a: 1 })).toEqual([]);
  expect(checkJsonSchema(null, { a: 1 })).toEqual([]);
});
