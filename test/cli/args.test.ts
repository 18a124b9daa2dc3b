import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCliArgs, UsageError } from "../../src/cli/args.js";
import { runCli } from "../helpers/cli.js";

describe("command-line values are checked at start", () => {
  it("--allow names a known tool (or an MCP tool), with a suggestion for a typo", () => {
    expect(() => parseCliArgs(["-p", "x", "--allow", "frobnicate"])).toThrow(UsageError);
    expect(() => parseCliArgs(["-p", "x", "--allow", "bsh(git status*)"])).toThrow(/unknown tool "bsh" \(did you mean "bash"\?\)/);
    expect(parseCliArgs(["-p", "x", "--allow", "bash(git status*)", "--allow", "mcp__docs__*", "--allow", "edit"]).allow).toHaveLength(3);
  });

  it("--model may not be empty", () => {
    expect(() => parseCliArgs(["-p", "x", "--model", ""])).toThrow(/--model needs a model id/);
    expect(() => parseCliArgs(["-p", "x", "--model", "  "])).toThrow(UsageError);
  });

  it("INK_HOME pointing at a regular file is refused before anything runs, naming the path and the fix", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "ink-home-file-")), "not-a-dir");
    writeFileSync(file, "x");
    const run = await runCli(["-p", "hello", "--provider", "demo"], { env: { INK_HOME: file, ANTHROPIC_API_KEY: undefined } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`INK_HOME ${file} is a file, not a directory`);
    expect(run.stdout).toBe("");
  });
});
