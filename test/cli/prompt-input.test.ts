import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../../src/cli/args.js";
import { checkPromptFits, keepPipedPrompt, resolvePrintPrompt } from "../../src/cli/prompt-input.js";
import { ensureBuilt } from "../helpers/build.js";
import { cliFixture, runCli } from "../helpers/cli.js";
import { sseTurn } from "../helpers/fake-anthropic-server.js";

const dir = mkdtempSync(join(tmpdir(), "ink-prompt-"));
const io = (stdin?: string | Buffer, tty = false) => ({ cwd: dir, stdinIsTTY: tty, readStdin: async () => Buffer.from(stdin ?? "") });

describe("ink -p takes its prompt from the argument, a file (@file) or stdin (-)", () => {
  it("reads @file relative to the shell's directory, - from stdin; anything else is the prompt itself", async () => {
    writeFileSync(join(dir, "brief.md"), "\uFEFFfind the login handler\n");
    expect(await resolvePrintPrompt("@brief.md", io())).toBe("find the login handler\n");
    expect(await resolvePrintPrompt("-", io("from a pipe"))).toBe("from a pipe");
    expect(await resolvePrintPrompt("plain words", io())).toBe("plain words");
    // A prompt mentioning a file keeps its meaning.
    expect(await resolvePrintPrompt("@src/app.ts what does it do?", io())).toBe("@src/app.ts what does it do?");
  });

  it("a file or stream that cannot give a prompt is a usage error naming it and the fix", async () => {
    mkdirSync(join(dir, "folder"), { recursive: true });
    writeFileSync(join(dir, "empty.md"), "  \n");
    writeFileSync(join(dir, "latin1.md"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const cases: Array<[string, ReturnType<typeof io>, RegExp]> = [
      ["@missing.md", io(), /cannot read the prompt file .*missing\.md \(ENOENT\); check the path/],
      ["@folder", io(), /folder is not a file; give a file holding the prompt/],
      ["@empty.md", io(), /the prompt file .*empty\.md is empty; write the prompt into it/],
      ["@latin1.md", io(), /latin1\.md is not UTF-8 text; convert it/],
      ["-", io("", true), /stdin is a terminal; pipe it in: ink -p - < brief\.md/],
      ["-", io(""), /the prompt on stdin is empty/],
    ];
    for (const [value, sources, message] of cases) await expect(resolvePrintPrompt(value, sources), value).rejects.toThrow(message);
    await expect(resolvePrintPrompt("@missing.md", io())).rejects.toBeInstanceOf(UsageError);
  });

  it("a prompt larger than the model's context window is refused before it is sent, naming the sizes and the fix; a piped one is kept", () => {
    expect(() => checkPromptFits("x".repeat(400_000), "m", 200_000)).not.toThrow();
    let kept = "";
    expect(() => checkPromptFits("x".repeat(900_000), "claude-x", 200_000, () => (kept = "/k/stdin.md"))).toThrow(/about 225,000 tokens \(0\.9 MiB\); the model claude-x reads at most 200,000 .* it was not sent; the prompt is kept in \/k\/stdin\.md — put the material in files/);
    expect(kept).toBe("/k/stdin.md");
  });

  it("a piped prompt that cannot be kept (INK_HOME unwritable) is still refused with the sizes and the fix, saying it was not kept and why", () => {
    const dir = mkdtempSync(join(tmpdir(), "ink-keep-"));
    const notADir = join(dir, "home-is-a-file");
    writeFileSync(notADir, "");
    const text = "x".repeat(900_000);
    let error: unknown;
    try {
      checkPromptFits(text, "claude-x", 200_000, () => keepPipedPrompt(notADir, text));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UsageError); // without the fix: the raw ENOTDIR error of mkdir, sizes and fix lost
    expect((error as Error).message).toMatch(/about 225,000 tokens .* it was not sent; the prompt could not be kept \(ENOTDIR.*home-is-a-file.*\) — put the material in files/);
  });
});

describe("the built CLI with long prompts (loopback Messages API)", () => {
  const fx = cliFixture();
  beforeAll(() => ensureBuilt(), 120_000);
  const env = () => ({ INK_HOME: fx.home, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fx.server.url });

  it("a 600 KB prompt — beyond the 128 KiB an argument may hold — piped or from a file reaches the model whole", async () => {
    const prompt = `Review this log.\n${"line of a long build log ✓ 0123456789\n".repeat(15_000)}`;
    writeFileSync(join(fx.repo, "..", "ink-brief-600k.md"), prompt);
    for (const [args, stdin] of [[["-p", "-"], prompt], [["-p", `@${join(fx.repo, "..", "ink-brief-600k.md")}`], undefined]] as const) {
      fx.server.reset();
      fx.server.enqueue(sseTurn([{ text: "read it all" }]));
      const run = await runCli([...args, "--cwd", fx.repo], { env: env(), stdin });
      expect(run.stderr).not.toMatch(/error|RangeError|Maximum call stack/i);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("read it all");
      const sent = JSON.stringify(fx.server.requests[0]!.body.messages[0].content);
      expect(sent).toContain(JSON.stringify(prompt).slice(1, -1));
    }
  });

  it("a 10 MB prompt is refused with the limit and the fix, nothing is sent, and a piped one is kept in INK_HOME/prompts", async () => {
    const big = "0123456789abcdef ".repeat(620_000); // ≈ 10.5 MB
    fx.server.reset();
    const file = join(fx.repo, "..", "ink-brief-10m.md");
    writeFileSync(file, big);
    const fromFile = await runCli(["-p", `@${file}`, "--cwd", fx.repo], { env: env() });
    expect(fromFile.code).toBe(1);
    expect(fromFile.stderr).toMatch(/the prompt is about 2,635,000 tokens \(10\.1 MiB\); the model .* reads at most 200,000 \(its context window\), so it was not sent — put the material in files/);
    const piped = await runCli(["-p", "-", "--cwd", fx.repo], { env: env(), stdin: big });
    expect(piped.code).toBe(1);
    const kept = /the prompt is kept in (\S+)/.exec(piped.stderr)?.[1];
    expect(kept && existsSync(kept) && readFileSync(kept, "utf8") === big).toBe(true);
    expect(readdirSync(join(fx.home, "prompts"))).toHaveLength(1);
    expect(fx.server.requests).toHaveLength(0);
  });
});
