/**
 * The check of an MCP tool's arguments against the JSON schema its server gave, by Ajv (the
 * validator the MCP SDK itself uses). Problems are named the way the model can fix them: where
 * (`a.b[0]`) and what (`expected string, got integer`, `is required`, `is not an accepted argument
 * (accepted: …)`). Keywords and formats Ajv does not know are accepted, and a schema Ajv cannot
 * compile checks nothing (the server still validates), so a valid call is never refused here.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

/** One problem: where (`a.b[0]`) and what. */
export interface SchemaProblem {
  path: string;
  message: string;
}

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, validateFormats: false, logger: false });
/** Compiled validators by schema object (a tool's schema is compiled once); null: it did not compile. */
const compiled = new WeakMap<object, ValidateFunction | null>();

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function validatorFor(schema: object): ValidateFunction | null {
  let v = compiled.get(schema);
  if (v === undefined) {
    // The draft named by `$schema` is not what matters here; Ajv's default draft reads the keywords servers use.
    const { $schema: _draft, ...rest } = schema as Record<string, unknown>;
    try {
      v = ajv.compile(rest);
    } catch {
      v = null;
    }
    compiled.set(schema, v);
  }
  return v;
}

/** `/a/b/0` as `a.b[0]`, with `key` appended. */
function pathOf(instancePath: string, key?: string): string {
  const parts = instancePath.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (key !== undefined) parts.push(key);
  return parts.reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out ? `${out}.${p}` : p), "");
}

function problemOf(e: ErrorObject): SchemaProblem {
  const at = pathOf(e.instancePath) || "(arguments)";
  switch (e.keyword) {
    case "type":
      return { path: at, message: `expected ${[e.params.type].flat().join(" or ")}, got ${typeOf(e.data)}` };
    case "required":
      return { path: pathOf(e.instancePath, String(e.params.missingProperty)), message: "is required" };
    case "additionalProperties": {
      const props = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return { path: pathOf(e.instancePath, String(e.params.additionalProperty)), message: `is not an accepted argument (accepted: ${props.join(", ") || "none"})` };
    }
    case "enum":
      return { path: at, message: `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` };
    default:
      return { path: at, message: e.message ?? `does not match the schema (${e.keyword})` };
  }
}

/** The problems of `value` against `schema` (empty when it fits, or when the schema cannot be checked). */
export function checkJsonSchema(schema: unknown, value: unknown): SchemaProblem[] {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return [];
  const validate = validatorFor(schema);
  if (!validate || validate(value)) return [];
  // anyOf/oneOf report each branch's failure and then their own; the own one is the useful line.
  return (validate.errors ?? []).map(problemOf).filter((p, i, all) => all.findIndex((q) => q.path === p.path && q.message === p.message) === i);
}
