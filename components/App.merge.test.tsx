/** /merge in the TUI (issue #40): the kept branches listed, then merged in order with the conflict named. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { afterEach, expect, it } from "vitest";
import type { ModelRequest } from "../src/protocol/provider.js";
import { userText, type UserMessage } from "../src/protocol/messages.js";
import { isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const env = { ...process.env, GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@e", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@e", GIT_CONFIG_NOSYSTEM: "1" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env, encoding: "utf8" });
const edits: Record<string, { path: string; content: string }> = {
  one: { path: "a.ts", content: "x\ny by one\n" },
  two: { path: "b.ts", content: "b\n" },
  three: { path: "a.ts", content: "x\ny by three\n" },
};

it("lists the kept branches and merges them in the order typed, stopping at the conflict", async () => {
  h = renderApp(
    (r: ModelRequest) => {
      if (isChild(r)) {
        const p = userText(r.messages[0] as UserMessage).trim().split("\n").at(-1)!;
        return r.messages.length === 1 ? { toolCalls: [{ name: "write", arguments: edits[p]! }] } : { text: `did ${p}` };
      }
      if (r.messages.length === 1) return { toolCalls: ["one", "two", "three"].map((p) => ({ name: "task", arguments: { prompt: p, description: `part ${p}`, worktree: true } })) };
      return { text: "workers finished" };
    },
    {
      session: { approval: { mode: "yolo" } as never },
      before: ({ cwd }) => {
        git(cwd, "init", "-q", "-b", "main");
        writeFileSync(join(cwd, "a.ts"), "x\ny\n");
        git(cwd, "add", "-A");
        git(cwd, "commit", "-qm", "init");
      },
    },
  );
  await typeAndSubmit(h.app, "split it");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("workers finished") && f.includes("Enter send"), { what: "the workers' end" });
  await typeAndSubmit(h.app, "/merge");
  const listing = await waitForFrame(h.app.lastFrame, (f) => f.includes("Kept worktree branches"), { what: "the listing" });
  expect(listing.match(/applies cleanly to HEAD/g)).toHaveLength(3);
  expect(listing).toContain("also changed by another branch: a.ts");
  const candidates = await h.session.mergeCandidates();
  const n = (title: string) => candidates.findIndex((c) => c.title === title) + 1;
  await typeAndSubmit(h.app, `/merge ${n("part one")} ${n("part two")} ${n("part three")}`);
  const done = await waitForFrame(h.app.lastFrame, (f) => f.includes("stopped at"), { what: "the merge outcome" });
  expect(done.replace(/\s+/g, " ")).toContain("it conflicts in a.ts");
  expect(readFileSync(join(h.cwd, "a.ts"), "utf8")).toBe("x\ny by one\n");
  expect(readFileSync(join(h.cwd, "b.ts"), "utf8")).toBe("b\n");
});
