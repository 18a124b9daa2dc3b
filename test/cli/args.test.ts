import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCliArgs, UsageError } from "../../src/cli/args.js";
import { runCli } from "../helpers/cli.js";

describe("command-line values are checked at start", () => {
  it("a misspelt flag names the one that was meant", () => {
    expect(() => parseCliArgs(["--inlin"])).toThrow(/Unknown option '--inlin' — did you mean --inline\?/);
    expect(() => parseCliArgs(["--max-chldren", "3"])).toThrow(/did you mean --max-children\?/);
    expect(() => parseCliArgs(["--frobnicate-everything"])).not.toThrow(/did you mean/);
  });

  it("--allow names a known tool (or an MCP tool), with a suggestion for a typo", () => {
    expect(() => parseCliArgs(["-p", "x", "--allow", "frobnicate"])).toThrow(UsageError);
    expect(() => parseCliArgs(["-p", "x", "--allow", "bsh(git status*)"])).toThrow(/unknown tool "bsh" \(did you mean "bash"\?\)/);
    expect(parseCliArgs(["-p", "x", "--allow", "bash(git status*)", "--allow", "mcp__docs__*", "--allow", "edit"]).allow).toHaveLength(3);
  });

  it("--mode takes rpc only, and not beside -p", () => {
    expect(parseCliArgs(["--mode", "rpc"]).mode).toBe("rpc");
    expect(parseCliArgs([]).mode).toBeUndefined();
    expect(() => parseCliArgs(["--mode", "json"])).toThrow('--mode must be rpc (the JSON control channel; omit --mode for the interactive UI), got "json"');
    expect(() => parseCliArgs(["--mode", "rpc", "-p", "hi"])).toThrow(/--mode rpc and -p\/--print contradict each other/);
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

  it.each([
    [["--allow", "frobnicate"], {}, 'ink: --allow: permission rule "frobnicate" names the unknown tool "frobnicate"; rules name read, bash'],
    [["--model", ""], {}, "ink: --model needs a model id, e.g. --model claude-sonnet-4-5"],
    [["--provider", "nope"], {}, 'ink: unknown provider "nope"; choose one of: anthropic, demo.'],
    [["--max-children", "0"], {}, 'ink: --max-children must be an integer from 1 to 64, got "0"'],
    [["--max-children", "100"], {}, 'ink: --max-children must be an integer from 1 to 64, got "100"'],
    [["--output", "xml"], {}, 'ink: --output must be text or json, got "xml"'],
    [["--cwd", "/nonexistent-ink-dir"], {}, "ink: --cwd /nonexistent-ink-dir: not a directory"],
    [[], { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "not a url" }, 'ink: ANTHROPIC_BASE_URL="not a url" is not an http(s) URL; set it to the endpoint'],
    [[], { INK_DEMO_DELAY_MS: "abc" }, 'ink: INK_DEMO_DELAY_MS must be a number of milliseconds ≥ 0 (got "abc")'],
  ] as Array<[string[], Record<string, string>, string]>)("a real CLI refuses %j %j before anything runs, naming the value and the fix", async (flags, env, message) => {
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    const run = await runCli(["-p", "hello", ...flags], { env: { INK_HOME: home, ...env } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe("");
    expect(existsSync(join(home, "sessions"))).toBe(false);
  });
});

describe("conflicting permission flags", () => {
  it("--yolo beside a stricter --permission-mode is refused, naming both; alone each is fine", () => {
    expect(() => parseCliArgs(["-p", "x", "--permission-mode", "plan", "--yolo"])).toThrow(/--yolo and --permission-mode plan contradict each other.*pass only one of them/);
    expect(() => parseCliArgs(["--yolo", "--permission-mode", "accept-edits"])).toThrow(UsageError);
    expect(parseCliArgs(["--permission-mode", "plan"]).permissionMode).toBe("plan");
    expect(parseCliArgs(["--yolo"]).yolo).toBe(true);
    expect(() => parseCliArgs(["--yolo", "--permission-mode", "yolo"])).not.toThrow();
  });

  it("--acp is its own mode: not with -p, and the editor (not --resume/--continue) picks sessions", () => {
    expect(parseCliArgs(["--acp"]).acp).toBe(true);
    expect(() => parseCliArgs(["--acp", "-p", "x"])).toThrow(/--acp .*cannot be combined with -p/);
    expect(() => parseCliArgs(["--acp", "--continue"])).toThrow(/session\/load.*drop --resume\/--continue/);
  });
});
