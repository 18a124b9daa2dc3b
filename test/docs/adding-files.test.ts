/**
 * docs/architecture.md "Adding a tool, an op or an event" lists the files a new op or event touches:
 * every file it names exists, and every code name it puts in backticks is found in one of them.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const doc = readFileSync(join(root, "docs/architecture.md"), "utf8");
const section = doc.slice(doc.indexOf("## Adding a tool, an op or an event"), doc.indexOf("\n## ", doc.indexOf("## Adding a tool, an op or an event") + 1));

/** The repository files `text` names (src/…, components/…, test/…, docs/…). */
export function namedFiles(text: string): string[] {
  return [...new Set([...text.matchAll(/\b((?:src|components|test|docs)\/[\w./-]*\w)/g)].map((m) => m[1]!))];
}

/** The code names `text` puts in backticks (`OP_SCHEMAS`, `RpcDispatcher.run`), each part of a dotted one. */
export function codeNames(text: string): string[] {
  return [...new Set([...text.matchAll(/`([A-Za-z_][\w.]*)`/g)].flatMap((m) => m[1]!.split(".")))];
}

it("the section is there and names files", () => {
  expect(section).toContain("**An op**");
  expect(section).toContain("**An event**");
  expect(namedFiles(section)).toContain("src/rpc/dispatcher.ts");
});

it("every file the section names exists", () => {
  expect(namedFiles(section).filter((f) => !existsSync(join(root, f)))).toEqual([]);
});

it("every code name in the section is found in a file it names", () => {
  const files = namedFiles(section).filter((f) => /\.(ts|tsx)$/.test(f) && existsSync(join(root, f)));
  const text = files.map((f) => readFileSync(join(root, f), "utf8")).join("\n");
  expect(codeNames(section).filter((name) => !new RegExp(`\\b${name}\\b`).test(text))).toEqual([]);
});

it("the readers find names and files, and a missing one shows", () => {
  expect(namedFiles("in src/rpc/commands.ts; components/hooks/x.ts, and test/e2e/.")).toEqual(["src/rpc/commands.ts", "components/hooks/x.ts", "test/e2e"]);
  expect(codeNames("`RPC_OP_TYPES` and `RpcDispatcher.run`, not `/command`")).toEqual(["RPC_OP_TYPES", "RpcDispatcher", "run"]);
});
