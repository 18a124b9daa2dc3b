/** Shared helpers for the tool tests: temp directories and a ToolContext. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ToolContext } from "../../src/protocol/tool.js";

/** A fresh temp directory; call the returned cleanup in afterEach. */
export function tempDir(prefix = "ink-tools-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes `files` (relative path → content) under `root`, creating directories. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

/** A ToolContext for `cwd`; pass a signal to test aborts, collect onUpdate via `updates`. */
export function makeCtx(cwd: string, signal: AbortSignal = new AbortController().signal): ToolContext & { updates: string[] } {
  const updates: string[] = [];
  return { cwd, signal, toolCallId: "call-1", onUpdate: (t) => updates.push(t), updates };
}

/** An already-aborted signal. */
export function abortedSignal(): AbortSignal {
  const c = new AbortController();
  c.abort();
  return c.signal;
}
