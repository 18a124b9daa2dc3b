/** AgentSession.submit: each op reaches the session's own method; answers go to the front end's answerer; `abort` stops the submitted runs. */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const session = (provider = createScriptedProvider(() => ({ text: "hello back" }))) =>
  new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: {} });

describe("AgentSession.submit", () => {
  it("runs a prompt op with its events going to the submission's onEvent", async () => {
    const s = session();
    const events: AgentEvent[] = [];
    const result = await s.submit({ type: "prompt", text: "hi" }, { onEvent: (e) => events.push(e) });
    expect(result.reason).toBe("done");
    expect(s.history.at(-1)).toMatchObject({ role: "assistant" });
    expect(events.some((e) => e.type === "text_delta")).toBe(true);
    s.close();
  });

  it("report, list_models and get_view answer what a screen reads: a command's report lines, /model's listing, the resumed view", async () => {
    const s = session();
    expect(s.submit({ type: "report", command: "/tasks" })).toEqual(s.commandLines("/tasks"));
    expect(s.submit({ type: "report", command: "/tasks" })?.length).toBeGreaterThan(0);
    expect(s.submit({ type: "report", command: "/nothing-such" })).toBeUndefined();
    const models = await s.submit({ type: "list_models" });
    expect(models[0]).toMatch(/^model: m \(/);
    // The view a resumed file brought (none here), as a copy the screen may keep.
    const view = s.submit({ type: "get_view" });
    expect(view).toEqual(s.view);
    expect(view).not.toBe(s.view);
    s.close();
  });

  it("sets the model and mode, and reports them in get_state", () => {
    const s = session();
    s.submit({ type: "set_model", model: "other" });
    s.submit({ type: "set_mode", mode: "plan" });
    expect(s.submit({ type: "get_state" })).toMatchObject({ sessionId: s.sessionId, model: "other", permissionMode: "plan", runningChildren: [] });
    expect(() => s.submit({ type: "set_model", model: " " })).toThrow(/give a model name/);
    s.close();
  });

  it("steer and abort of a child that is not running say false; steer with no prompt running says false", () => {
    const s = session();
    expect(s.submit({ type: "steer", text: "x" })).toBe(false);
    expect(s.submit({ type: "steer", text: "x", child: "nobody" })).toBe(false);
    expect(s.submit({ type: "abort", child: "nobody" })).toBe(false);
    expect(s.submit({ type: "abort" })).toBe(false);
    s.close();
  });

  it("abort without a child stops the prompt that submit started", async () => {
    const s = session(createScriptedProvider(() => ({ text: "never", waitFor: new Promise(() => undefined) })));
    let started!: () => void;
    const turn = new Promise<void>((r) => (started = r));
    const run = s.submit({ type: "prompt", text: "wait" }, { onEvent: (e) => e.type === "turn_start" && started() });
    await turn;
    expect(s.submit({ type: "abort" })).toBe(true);
    const outcome = await run.then((r) => r.reason, () => "rejected");
    expect(["aborted", "rejected"]).toContain(outcome);
    expect(s.submit({ type: "abort" })).toBe(false);
    s.close();
  });

  it("passes approval and budget answers to the front end's answerer, and says when there is none", () => {
    const s = session();
    expect(() => s.submit({ type: "approve", requestId: "a1" })).toThrow('no approval question is open here (request "a1")');
    const answers: unknown[] = [];
    s.setApprovalAnswerer((id, approved, reason) => (answers.push([id, approved, reason]), id === "gone" ? `no approval "${id}" is waiting` : undefined));
    s.submit({ type: "deny", requestId: "a1", reason: "not now" });
    expect(() => s.submit({ type: "approve", requestId: "gone" })).toThrow('no approval "gone" is waiting');
    expect(answers).toEqual([["a1", false, "not now"], ["gone", true, undefined]]);
    expect(() => s.submit({ type: "answer_budget", requestId: 1, answer: "stop" })).toThrow(/no budget question/);
    s.setBudgetAsk(async () => "stop", (id, answer) => answers.push([id, answer]));
    s.submit({ type: "answer_budget", requestId: 1, answer: { add: 100 } });
    expect(answers.at(-1)).toEqual([1, { add: 100 }]);
    s.close();
  });

  it("run_command refuses text that names no command file", async () => {
    const s = session();
    await expect(s.submit({ type: "run_command", text: "/nothing-here now" })).rejects.toThrow('"/nothing-here" is not a command file or skill of this session');
    s.close();
  });

  it("input runs a command file it names as run_command, and anything else as a prompt", async () => {
    const home = temp("ink-home-");
    mkdirSync(join(home, "commands"), { recursive: true });
    writeFileSync(join(home, "commands", "shout.md"), "---\ndescription: Shouts\n---\nSHOUT $ARGUMENTS\n");
    const prompts: string[] = [];
    const provider = createScriptedProvider((req) => {
      prompts.push(JSON.stringify(req.messages.at(-1)));
      return { text: "ok" };
    });
    const s = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: home, provider, model: "m", interactive: true, approval: {} });
    expect(s.submit({ type: "list_commands" }).map((c) => c.name)).toContain("/shout");
    expect((await s.submit({ type: "input", text: "/shout loud" })).kind).toBe("prompt");
    expect((await s.submit({ type: "input", text: "/nothing-here now" })).kind).toBe("prompt");
    expect(prompts[0]).toContain("SHOUT loud");
    expect(prompts[1]).toContain("/nothing-here now");
    s.close();
  });

  it("save with create writes the session file before anything was said; start_mcp and wait_background resolve with nothing to wait for; end runs once", async () => {
    const s = session();
    expect(s.submit({ type: "get_state" }).sessionPath).toBeNull();
    expect(s.submit({ type: "save", create: true })).toBeUndefined();
    const path = s.submit({ type: "get_state" }).sessionPath;
    expect(path && existsSync(path)).toBe(true);
    expect(s.submit({ type: "save" })).toBeUndefined();
    await s.submit({ type: "start_mcp" });
    await s.submit({ type: "wait_background" });
    await s.submit({ type: "end", reason: "other" });
    await s.submit({ type: "end" });
    s.submit({ type: "close" });
  });
});
