/** A saved main session of many finished messages, for the benchmarks that resume one (render, startup). */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A session file of `messages` finished messages for `cwd` in `inkHome`; returns its id. */
export function historySession(inkHome: string, cwd: string, messages: number): string {
  const dir = join(inkHome, "sessions");
  mkdirSync(dir, { recursive: true });
  const id = `20250303-000000-h${messages.toString(16).padStart(5, "0")}`;
  const at = new Date().toISOString();
  const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 };
  const lines: unknown[] = [{ type: "header", version: 1, id, kind: "main", cwd, provider: "anthropic", model: "claude-fake", fingerprint: "f", toolNames: [], createdAt: at, prompt: "history" }];
  for (let i = 0; i < messages; i++) {
    const message =
      i % 2 === 0
        ? { role: "user", content: `question ${i}: where is the login handled in this project, and which tests cover it?` }
        : { role: "assistant", content: [{ type: "text", text: `Answer ${i}: the login is handled in src/auth/login.ts; the redirect happens after the check.\n\n- one point\n- another point` }], stopReason: "end_turn", usage };
    lines.push({ type: "message", message, at });
  }
  writeFileSync(join(dir, `${id}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return id;
}

/** A saved main session of one question and one long answer (`answer`) for `cwd` in `inkHome`; returns its id. */
export function longAnswerSession(inkHome: string, cwd: string, answer: string): string {
  const dir = join(inkHome, "sessions");
  mkdirSync(dir, { recursive: true });
  const id = "20250303-000000-long0";
  const at = new Date().toISOString();
  const usage = { input: 10, output: Math.round(answer.length / 4), cacheRead: 0, cacheWrite: 0 };
  const lines: unknown[] = [
    { type: "header", version: 1, id, kind: "main", cwd, provider: "anthropic", model: "claude-fake", fingerprint: "f", toolNames: [], createdAt: at, prompt: "history" },
    { type: "message", message: { role: "user", content: "explain the whole code base" }, at },
    { type: "message", message: { role: "assistant", content: [{ type: "text", text: answer }], stopReason: "end_turn", usage }, at },
  ];
  writeFileSync(join(dir, `${id}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return id;
}
