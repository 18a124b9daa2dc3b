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

/** Polls for a frame that waits on real git work (worktrees, merges, a resumed child): seconds on a loaded machine. */
const GIT_TRIES = 2000;

it("lists the kept branches, merges them in the order typed, stops at the conflict showing it, and /merge hand has its child resolve it, then goes on", async () => {
  h = renderApp(
    (r: ModelRequest) => {
      const last = r.messages.at(-1)!;
      if (isChild(r) && last.role === "user" && userText(last).includes("[Ink merge queue]")) return { toolCalls: [{ name: "bash", arguments: { command: "git merge main; true" } }] };
      if (isChild(r) && last.role === "toolResult" && last.results[0]!.content.includes("CONFLICT")) return { toolCalls: [{ name: "write", arguments: { path: "a.ts", content: "x\ny by one and three\n" } }] };
      if (isChild(r) && last.role === "toolResult" && last.results[0]!.toolName === "write" && r.messages.length > 3) return { toolCalls: [{ name: "bash", arguments: { command: "git add a.ts && git -c user.name=w -c user.email=w@e commit -q --no-edit && echo resolved-ok" } }] };
      if (isChild(r) && last.role === "toolResult" && last.results[0]!.content.includes("resolved-ok")) return { text: "kept both lines' intent" };
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
  await waitForFrame(h.app.lastFrame, (f) => f.includes("workers finished") && f.includes("Enter send"), { what: "the workers' end", tries: GIT_TRIES });
  await typeAndSubmit(h.app, "/merge");
  const listing = await waitForFrame(h.app.lastFrame, (f) => f.includes("Kept worktree branches"), { what: "the listing", tries: GIT_TRIES });
  expect(listing.match(/applies cleanly to HEAD/g)).toHaveLength(3);
  expect(listing).toContain("also changed by another branch: a.ts");
  const candidates = await h.session.mergeCandidates();
  const n = (title: string) => candidates.findIndex((c) => c.title === title) + 1;
  await typeAndSubmit(h.app, `/merge ${n("part one")} ${n("part two")} ${n("part three")}`);
  const done = await waitForFrame(h.app.lastFrame, (f) => f.includes("stopped at"), { what: "the merge outcome", tries: GIT_TRIES });
  expect(done.replace(/\s+/g, " ")).toContain("it conflicts in a.ts");
  expect(readFileSync(join(h.cwd, "a.ts"), "utf8")).toBe("x\ny by one\n");
  expect(readFileSync(join(h.cwd, "b.ts"), "utf8")).toBe("b\n");
  const flat = done.replace(/\s+/g, " ");
  expect(flat).toMatch(/<<<<<<< HEAD .*y by one .*=======.*y by three/); // the conflicting hunk
  expect(flat).toMatch(/→ \/merge hand resumes part three \[[0-9a-f-]+\] in its worktree with this conflict as its prompt, then merges ink\/\S+/);
  await typeAndSubmit(h.app, "/merge hand");
  const handed = await waitForFrame(h.app.lastFrame, (f) => (f.replace(/\s+/g, " ").match(/\/merge: merged ink\//g) ?? []).length === 2 && f.includes("Enter send"), { what: "the merge after the hand-off", tries: GIT_TRIES });
  const after = handed.replace(/\s+/g, " ");
  expect(after).toContain("kept both lines' intent"); // the resumed child's report
  expect(after).toMatch(/\/merge: merged ink\/\S+ \(worktrees and branches removed\)(?!; stopped)/);
  expect(readFileSync(join(h.cwd, "a.ts"), "utf8")).toBe("x\ny by one and three\n");
  expect(git(h.cwd, "branch", "--list", "ink/*").trim()).toBe("");
  expect(await h.session.mergeCandidates()).toEqual([]);
}, 120_000); // real git merges in three worktrees: slow on a loaded machine (the waits end as soon as the frame shows)
