/**
 * A small JSON-schema check for MCP tool arguments: `type` (incl. unions), `required`,
 * `properties`, `additionalProperties: false`, `enum`, `const`, `items`, `minimum`/`maximum`,
 * `minLength`/`maxLength`. Keywords it does not know are accepted (the server still validates),
 * so a valid call is never refused here.
 */

/** One problem: where (`a.b[0]`) and what. */
export interface SchemaProblem {
  path: string;
  message: string;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === "number" && actual === "integer");
}

/** The problems of `value` against `schema` (empty when it fits). */
export function checkJsonSchema(schema: unknown, value: unknown, path = ""): SchemaProblem[] {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return [];
  const s = schema as Record<string, any>;
  const at = path || "(arguments)";
  const out: SchemaProblem[] = [];
  if (s.type !== undefined) {
    const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t) => matchesType(value, t))) return [{ path: at, message: `expected ${types.join(" or ")}, got ${typeOf(value)}` }];
  }
  if (Array.isArray(s.enum) && !s.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value))) {
    out.push({ path: at, message: `must be one of ${s.enum.map((e: unknown) => JSON.stringify(e)).join(", ")}` });
  }
  if ("const" in s && JSON.stringify(s.const) !== JSON.stringify(value)) out.push({ path: at, message: `must be ${JSON.stringify(s.const)}` });
  if (typeof value === "number") {
    if (typeof s.minimum === "number" && value < s.minimum) out.push({ path: at, message: `must be ≥ ${s.minimum}` });
    if (typeof s.maximum === "number" && value > s.maximum) out.push({ path: at, message: `must be ≤ ${s.maximum}` });
  }
  if (typeof value === "string") {
    if (typeof s.minLength === "number" && value.length < s.minLength) out.push({ path: at, message: `must have at least ${s.minLength} characters` });
    if (typeof s.maxLength === "number" && value.length > s.maxLength) out.push({ path: at, message: `must have at most ${s.maxLength} characters` });
  }
  if (Array.isArray(value) && s.items && typeof s.items === "object") {
    value.forEach((item, i) => out.push(...checkJsonSchema(s.items, item, `${path}[${i}]`)));
  }
  if (typeOf(value) === "object") {
    const obj = value as Record<string, unknown>;
    const props: Record<string, unknown> = s.properties && typeof s.properties === "object" ? s.properties : {};
    for (const key of Array.isArray(s.required) ? s.required : []) {
      if (!(key in obj)) out.push({ path: path ? `${path}.${key}` : key, message: "is required" });
    }
    for (const [key, v] of Object.entries(obj)) {
      const child = path ? `${path}.${key}` : key;
      if (key in props) out.push(...checkJsonSchema(props[key], v, child));
      else if (s.additionalProperties === false) out.push({ path: child, message: `is not an accepted argument (accepted: ${Object.keys(props).join(", ") || "none"})` });
      else if (s.additionalProperties && typeof s.additionalProperties === "object") out.push(...checkJsonSchema(s.additionalProperties, v, child));
    }
  }
  return out;
}
