/**
 * Resuming a long session costs the screen, not the history (issue #29's "no regression" row):
 * full-screen, the first frame of a resumed 2,000-message session parses the Markdown of the
 * answers in view only — the history's total height (which needs every answer parsed) is not
 * summed while the view follows the end — and Home still reaches the first message.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderApp, type AppHarness } from "./testing/app-harness.js";
import { waitForFrame } from "./testing/wait-for-frame.js";

/** The text of every Markdown parse, in order. */
const parsed = vi.hoisted(() => [] as string[]);
vi.mock("./markdown/parse-markdown.js", async (importActual) => {
  const actual = await importActual<typeof import("./markdown/parse-markdown.js")>();
  return {
    ...actual,
    parseMarkdown: (text: string) => {
      parsed.push(text);
      return actual.parseMarkdown(text);
    },
  };
});

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
  parsed.length = 0;
});

const ID = "20250303-000000-parse";
const MESSAGES = 2_000;

/** A saved session of `MESSAGES` finished messages (questions and short Markdown answers). */
function writeSession(inkHome: string, cwd: string): void {
  const dir = join(inkHome, "sessions");
  mkdirSync(dir, { recursive: true });
  const at = new Date().toISOString();
  const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 };
  const lines: unknown[] = [{ type: "header", version: 1, id: ID, kind: "main", cwd, provider: "scripted", model: "scripted-model", fingerprint: "f", toolNames: [], createdAt: at, prompt: "history" }];
  for (let i = 0; i < MESSAGES; i++) {
    const message =
      i % 2 === 0
        ? { role: "user", content: `question ${i}: where is the login handled?` }
        : { role: "assistant", content: [{ type: "text", text: `Answer ${i}: in **src/auth/login.ts**.\n\n- one point\n- another point` }], stopReason: "end_turn", usage };
    lines.push({ type: "message", message, at });
  }
  writeFileSync(join(dir, `${ID}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}

const HOME = "\u001b[H";

describe("resuming a long session in full-screen", () => {
  it("parses only the answers on screen for the first frame; Home still reaches the first message", async () => {
    h = renderApp(() => ({ text: "unused" }), { screenMode: "fullscreen", session: { resume: ID }, before: ({ cwd, inkHome }) => writeSession(inkHome, cwd) });
    await waitForFrame(h.app.lastFrame, (f) => f.includes(`Answer ${MESSAGES - 1}:`) && f.includes("Ask Ink"), { what: "the resumed session's last answer" });
    const answers = parsed.filter((t) => t.startsWith("Answer "));
    // A screen of 24 rows holds a few answers; the other ~1,000 are not parsed.
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.length).toBeLessThan(20);
    expect(answers.some((t) => t.startsWith("Answer 1:"))).toBe(false);

    h.app.stdin.write(HOME);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("question 0:"), { tries: 500, what: "the first message after Home" });
  });
});
