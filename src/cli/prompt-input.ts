/**
 * Where `ink -p` takes its prompt from: the argument itself, `-` (all of stdin) or `@file` (a file's
 * text). A command-line argument is capped by the system (128 KiB on Linux), so a long brief is
 * given by file or pipe. Bad input is a UsageError naming the file or the stream and the fix.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { textTokens } from "../core/token-estimate.js";
import { UsageError } from "./args.js";

/** The largest prompt accepted from a file or stdin (bytes); the model's context window is far smaller. */
export const MAX_PROMPT_BYTES = 64 * 1024 * 1024;

export interface PromptSources {
  /** Where `@file` is resolved (the shell's working directory). */
  cwd: string;
  /** Whether stdin is a terminal (then `-` has nothing to read). */
  stdinIsTTY: boolean;
  /** Reads all of stdin. */
  readStdin: () => Promise<Buffer>;
}

/**
 * The prompt text for `ink -p <value>`: `-` reads stdin to its end, `@path` reads that file (a
 * value starting with `@` that names no file and holds spaces is a prompt mentioning a file, as in
 * the TUI), anything else is the prompt. Throws UsageError when the file or stream cannot be read,
 * is too large, is not UTF-8 text, or is empty.
 */
export async function resolvePrintPrompt(value: string, io: PromptSources): Promise<string> {
  if (value === "-") {
    if (io.stdinIsTTY) throw new UsageError('ink -p - reads the prompt from stdin, but stdin is a terminal; pipe it in: ink -p - < brief.md (or: cat brief.md | ink -p -)');
    const bytes = await io.readStdin();
    return promptText(bytes, "the prompt on stdin", "pipe a non-empty prompt into ink -p -");
  }
  if (!value.startsWith("@") || value.length === 1) return value;
  const path = resolve(io.cwd, value.slice(1));
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new UsageError(`ink -p ${value}: ${path} is not a file; give a file holding the prompt, e.g. ink -p @brief.md`);
    size = st.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // "@src/app.ts what does it do?" is a prompt with a mention, not a prompt file.
    if (/\s/.test(value)) return value;
    throw new UsageError(`ink -p ${value}: cannot read the prompt file ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); check the path, or pass the prompt itself: ink -p "…"`);
  }
  if (size > MAX_PROMPT_BYTES) throw tooLarge(`the prompt file ${path}`, size);
  return promptText(readFileSync(path), `the prompt file ${path}`, "write the prompt into it");
}

function tooLarge(what: string, size: number): UsageError {
  return new UsageError(`${what} is ${mib(size)}; ink -p accepts at most ${mib(MAX_PROMPT_BYTES)} (and a model reads far less: about 800 KB of text fills a 200k-token context window); put the material in files in the working directory and ask the agent to read or search them`);
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function promptText(bytes: Buffer, what: string, fix: string): string {
  if (bytes.length > MAX_PROMPT_BYTES) throw tooLarge(what, bytes.length);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${what} is not UTF-8 text; convert it (e.g. iconv -f latin1 -t utf-8) and try again`);
  }
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  if (text.trim() === "") throw new UsageError(`${what} is empty; ${fix}`);
  return text;
}

/** Reads a stream to its end, stopping (with the bytes so far) once more than `limit` bytes came. */
export async function readAll(stream: NodeJS.ReadableStream, limit = MAX_PROMPT_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buf);
    total += buf.length;
    if (total > limit) break;
  }
  return Buffer.concat(chunks);
}

/**
 * Refuses (UsageError) a prompt that cannot fit the model's context window by itself (estimated at
 * ≈ 4 characters a token), before anything is sent or saved. `keep` stores a piped prompt (it
 * returns the file), so nothing is lost; when it cannot, the refusal says so and why.
 */
export function checkPromptFits(text: string, model: string, contextWindow: number, keep?: () => string): void {
  const tokens = textTokens(text);
  if (tokens <= contextWindow) return;
  let kept = "";
  try {
    const saved = keep?.();
    if (saved) kept = `; the prompt is kept in ${saved}`;
  } catch (err) {
    kept = `; the prompt could not be kept (${err instanceof Error ? err.message : String(err)})`;
  }
  const fmt = (n: number) => n.toLocaleString("en-US");
  throw new UsageError(
    `the prompt is about ${fmt(tokens)} tokens (${mib(Buffer.byteLength(text))}); the model ${model} reads at most ${fmt(contextWindow)} (its context window), so it was not sent` +
      `${kept} — put the material in files in the working directory and give a short brief that tells the agent what to read or search (e.g. ink -p "summarise the failures in logs/build.log")`,
  );
}

/** Writes a piped prompt to `$INK_HOME/prompts/stdin-<time>.md` and returns the file. */
export function keepPipedPrompt(inkHome: string, text: string): string {
  const dir = join(inkHome, "prompts");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `stdin-${new Date().toISOString().replace(/[:.]/g, "-")}.md`);
  writeFileSync(file, text);
  return file;
}
