import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractKeywords } from "../../src/providers/demo-keywords.js";
import { askDemo } from "../helpers/demo-session.js";
import { writeTree } from "../tools/context.js";

let cwd = "";
let inkHome = "";

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), "ink-demo-deleg-"));
  inkHome = mkdtempSync(join(tmpdir(), "ink-demo-home-"));
  writeTree(cwd, {
    // Mentions sessions a lot, defines nothing about locking.
    "components/views/SessionPicker.tsx": "// sessions sessions sessions\nexport function SessionPicker() {\n  return 'pick one of the sessions';\n}\n",
    // Defines the lock.
    "src/session/lock.ts": "export class SessionLockedError extends Error {}\n\nexport function acquireLock(path: string) {\n  return { path };\n}\n",
    "src/session/store.ts": "import { acquireLock } from './lock.js';\n\nexport function openSession(id: string) {\n  return acquireLock(id);\n}\n",
    "test/session/lock.test.ts": "import { acquireLock } from '../../src/session/lock.js';\n\ntest('lock', () => acquireLock('x'));\n",
    "README.md": "# Sessions\n\nSessions are locked while a process writes them.\n",
  });
});

afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(inkHome, { recursive: true, force: true });
});

/** Asks the demo in the fixture repository. */
const ask = (prompt: string) => askDemo(cwd, inkHome, prompt);

describe("the demo divides the work for real", () => {
  it("keeps what is done to the topic as a keyword", () => {
    expect(extractKeywords("where are sessions locked?")).toEqual(["sessions", "locked"]);
    expect(extractKeywords("where is the login handled?")).toEqual(["login"]);
  });

  it("children with different angles run different searches, one reads several files, and the defining file ranks first", async () => {
    const { prompts, calls, text } = await ask("where are sessions locked?");
    expect(prompts.size).toBe(3);
    const searches = [...calls.entries()].map(([, list]) => JSON.stringify(list.filter((c) => c.name !== "read")));
    expect(new Set(searches).size).toBe(searches.length);
    const byAngle = (re: RegExp) => calls.get([...prompts].find(([, p]) => re.test(p))![0])!;
    expect(byAngle(/^Find the tests/).some((c) => c.name === "grep" && c.arguments.glob !== undefined)).toBe(true);
    expect(byAngle(/^Find where/).some((c) => c.name === "grep" && String(c.arguments.pattern).startsWith("(function|class"))).toBe(true);
    const reads = [...calls.values()].map((list) => list.filter((c) => c.name === "read").map((c) => c.arguments.path));
    expect(Math.max(...reads.map((r) => new Set(r).size))).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/\*\*1\. Implementation\*\* — done\n> The code for `sessions` and `locked` is in `src\/session\/lock\.ts`/);
    expect(text.trim().split("\n").pop()).toMatch(/^\*\*Conclusion:\*\* .* mainly in `src\/session\/lock\.ts`, covered by `test\/session\/lock\.test\.ts`/);
    expect(text).not.toMatch(/mainly in `components\/SessionPicker/);
  });
});
