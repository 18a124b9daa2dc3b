/**
 * docs/architecture.md's "Ops and the session's channel" names every op of the op union, and nothing
 * that is not one, with a line saying what it asks; and the session channel's own events.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { OP_TYPES } from "../../src/protocol/ops.js";

const doc = readFileSync(join(import.meta.dirname, "..", "..", "docs", "architecture.md"), "utf8");

/** The text of the section under `heading` (to the next `## `). */
function section(heading: string): string {
  const start = doc.indexOf(`\n## ${heading}\n`);
  expect(start, `docs/architecture.md has no "## ${heading}"`).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

/** The first cells of a section's table rows (`| \`name\` | … |`), each with the rest of its row. */
function tableRows(text: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const m of text.matchAll(/^\| `([a-z_*]+)`[^|]*\|(.*)\|\s*$/gm)) rows.set(m[1]!, m[2]!);
  return rows;
}

it("lists every op of the union, and only those, each with what it asks and carries", () => {
  const [ops] = section("Ops and the session's channel").split("\n| event |");
  const rows = tableRows(ops!);
  expect([...rows.keys()].filter((name) => !(OP_TYPES as string[]).includes(name)), "documented ops that do not exist").toEqual([]);
  expect(OP_TYPES.filter((op) => !rows.has(op)), "ops missing from docs/architecture.md").toEqual([]);
  for (const [op, rest] of rows) expect(rest.split("|").map((c) => c.trim()).filter(Boolean), op).toHaveLength(2);
});

it("lists the session channel's notice and spend events", () => {
  const [, events] = section("Ops and the session's channel").split("\n| event |");
  const rows = tableRows(events ?? "");
  expect(rows.get("notice")).toMatch(/text/);
  expect(rows.get("spend")).toMatch(/usage/);
});

it("reads table rows by their first cell", () => {
  expect([...tableRows("| `get_view` | asks | carries |\n| `notice` | x |\n| not code | y |").keys()]).toEqual(["get_view", "notice"]);
});
