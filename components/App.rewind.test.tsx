/** /rewind in the TUI (issue #40): the turns listed with their files, a person-changed file named, files and conversation taken back. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import type { ModelRequest } from "../src/protocol/provider.js";
import { isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame, waitUntil } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const lastUser = (r: ModelRequest) => {
  const m = r.messages.at(-1);
  return m?.role === "user" && typeof m.content === "string" ? m.content : undefined;
};

it("lists the turns with the files each changed (Esc Esc), refuses over a file the person changed, then rewinds with force", async () => {
  h = renderApp((r) => {
    const said = lastUser(r);
    return said ? { toolCalls: [{ name: "write", arguments: { path: "notes.txt", content: `${said}\n` } }] } : { text: "written" };
  }, { session: { approval: { mode: "yolo" } as never } });
  writeFileSync(join(h.cwd, "notes.txt"), "mine\n");
  await typeAndSubmit(h.app, "alpha");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("written") && f.includes("Enter send"));
  await typeAndSubmit(h.app, "beta");
  await waitForFrame(h.app.lastFrame, (f) => (f.match(/written/g) ?? []).length >= 2 && f.includes("Enter send"));
  // Esc Esc on the empty prompt lists the turns, as /rewind does
  h.app.stdin.write("\u001b");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("Esc again lists the turns"), { what: "the first Esc's hint" });
  h.app.stdin.write("\u001b");
  const listing = await waitForFrame(h.app.lastFrame, (f) => f.includes("Turns (rewinding"), { what: "the turn listing" });
  expect(listing).toContain('turn 1 "alpha" — main: notes.txt +1 −1');
  expect(listing).toContain('turn 2 "beta" — main: notes.txt +1 −1');
  writeFileSync(join(h.cwd, "notes.txt"), "edited by hand\n");
  await typeAndSubmit(h.app, "/rewind 2 files");
  const refused = await waitForFrame(h.app.lastFrame, (f) => f.includes("not overwritten: notes.txt"), { what: "the refusal" });
  // The command it offers keeps "files": "/rewind 2 force" would cut the conversation as well.
  expect(refused.replace(/\s+/g, " ")).toContain("/rewind 2 files force overwrites");
  expect(readFileSync(join(h.cwd, "notes.txt"), "utf8")).toBe("edited by hand\n");
  const turns = h.session.history.length;
  await typeAndSubmit(h.app, "/rewind 2 files force");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("rewound to before turn 2"), { what: "the files rewind" });
  expect(readFileSync(join(h.cwd, "notes.txt"), "utf8")).toBe("alpha\n");
  expect(h.session.history).toHaveLength(turns); // files only: the conversation stays
  await typeAndSubmit(h.app, "/rewind 2 conversation");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("the conversation is back to before turn 2"), { what: "the conversation rewind" });
  expect(h.session.history.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
});

it("rewinding while a child runs asks the usual question first: n changes nothing, y stops the child and rewinds", async () => {
  h = renderApp((r) => {
    if (isChild(r)) return { text: "CHILD WORKING", waitFor: new Promise(() => {}) };
    const said = lastUser(r);
    if (said === "start") return { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "investigate the cache", background: true } }] };
    if (said) return { toolCalls: [{ name: "write", arguments: { path: "notes.txt", content: `${said}\n` } }] };
    return { text: "written" };
  }, { session: { approval: { mode: "yolo" } as never } });
  writeFileSync(join(h.cwd, "notes.txt"), "mine\n");
  await typeAndSubmit(h.app, "alpha");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("written") && f.includes("Enter send"));
  await typeAndSubmit(h.app, "start");
  await waitForFrame(h.app.lastFrame, (f) => /general · (.+ · )?running/.test(f), { what: "the background child" });
  await waitUntil(() => h!.session.runningChildren.length === 1, { what: "the child to run" });
  await typeAndSubmit(h.app, "/rewind 1 files");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("1 child is still running. Stop it and rewind to before turn 1? y/n"), { what: "the question" });
  h.app.stdin.write("n");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("nothing done (rewind to before turn 1); the children keep working"), { what: "the no" });
  expect(readFileSync(join(h.cwd, "notes.txt"), "utf8")).toBe("alpha\n");
  expect(h.session.runningChildren).toHaveLength(1);
  await typeAndSubmit(h.app, "/rewind 1 files");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("Stop it and rewind to before turn 1? y/n"), { what: "the question again" });
  h.app.stdin.write("y");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("rewound to before turn 1") && f.includes("Enter send"), { what: "the rewind" });
  expect(readFileSync(join(h.cwd, "notes.txt"), "utf8")).toBe("mine\n");
  expect(h.session.runningChildren).toHaveLength(0);
  // The stopped child's report starts no turn of its own (that turn would act on what was just taken back).
  expect(h.session.hasUndeliveredReports).toBe(false);
  expect(h.session.history.some((m) => m.role === "user" && JSON.stringify(m.content).includes("background-report"))).toBe(false);
});

it("/copy after a conversation rewind copies the last answer the conversation still holds, not one below the cut", async () => {
  h = renderApp((r) => {
    const said = lastUser(r);
    return { text: `answer to ${said}` };
  });
  await typeAndSubmit(h.app, "alpha");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("answer to alpha") && f.includes("Enter send"));
  await typeAndSubmit(h.app, "beta");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("answer to beta") && f.includes("Enter send"));
  await typeAndSubmit(h.app, "/rewind 2 conversation");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("the conversation is back to before turn 2"), { what: "the conversation rewind" });
  await typeAndSubmit(h.app, "/copy");
  const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("Copied the last answer"), { what: "the copy notice" });
  expect(readFileSync(/and to\s+(\S+\.md)/.exec(frame)![1]!, "utf8")).toBe("answer to alpha\n");
  await typeAndSubmit(h.app, "/rewind 1 conversation");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("the conversation is back to before turn 1"), { what: "the second rewind" });
  await typeAndSubmit(h.app, "/copy");
  await waitForFrame(h.app.lastFrame, (f) => f.includes("There is no answer to copy yet."), { what: "nothing left to copy" });
});
