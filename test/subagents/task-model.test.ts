/** Per-dispatch model and thinking (issue #25 item 3): `task {model, thinking}`, the same-provider rule, headers and resume. */
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import type { ScriptedTurn } from "../../src/providers/scripted.js";
import { harness, type Harness, idOf, isChild } from "../helpers/subagent-harness.js";

let h: Harness | undefined;
afterEach(() => h?.cleanup());

/** The parent calls task with each of `calls` in turn (one per user message), then answers. */
function parent(calls: Array<() => Record<string, unknown>>) {
  let n = 0;
  return (r: ModelRequest): ScriptedTurn => (r.messages.at(-1)!.role === "user" && n < calls.length ? { toolCalls: [{ id: `t${n}`, name: "task", arguments: calls[n++]!() }] } : { text: "ok" });
}
const results = (hh: Harness) => hh.history.filter((m): m is ToolResultMessage => m.role === "toolResult").map((m) => m.results[0]!);
const MODELS = ["scripted-model", "small-model", "big-model"];

describe("task model and thinking", () => {
  it("a `model` argument runs the child on that model, with the thinking asked for, and its header records both", async () => {
    const p = parent([() => ({ prompt: "look", model: "small-model", thinking: "high" })]);
    h = harness((r) => (isChild(r) ? { text: "report" } : p(r)), { models: MODELS });
    await h.run("go");
    const child = h.provider.requests.filter(isChild);
    expect(child.map((r) => r.model)).toEqual(["small-model"]);
    expect(child[0]!.thinking).toEqual({ type: "on", budgetTokens: expect.any(Number), level: expect.any(String) });
    expect(h.provider.requests.filter((r) => !isChild(r)).every((r) => r.model === "scripted-model")).toBe(true);
    const id = idOf(results(h)[0]!.content);
    expect(h.store.readHeader(id)).toMatchObject({ model: "small-model", modelFrom: "task", thinking: { type: "on" } });
    const start = h.events.find((e) => e.type === "subagent_start");
    expect(start).toMatchObject({ model: "small-model" });
  });

  it("a model of another provider, or one this provider does not serve, is refused before start, naming the choices", async () => {
    const p = parent([() => ({ prompt: "look", model: "openai/gpt-5" }), () => ({ prompt: "look", model: "gpt-5" })]);
    h = harness((r) => (isChild(r) ? { text: "never" } : p(r)), { models: MODELS });
    await h.run("one");
    await h.run("two");
    const [other, unserved] = results(h);
    expect(other).toMatchObject({ isError: true });
    expect(other!.content).toMatch(/task asks for model "openai\/gpt-5" from provider "openai", but this session uses provider "scripted" \(it serves scripted-model, small-model, big-model\)/);
    expect(unserved!.content).toMatch(/task asks for model "gpt-5", which provider "scripted" does not serve \(it serves scripted-model, small-model, big-model\).*this session runs "scripted-model"/);
    expect(h.provider.requests.filter(isChild)).toHaveLength(0);
    expect(h.store.list({ kind: "child" })).toHaveLength(0);
  });

  it("a bad thinking value is refused before start", async () => {
    const p = parent([() => ({ prompt: "look", thinking: 10 })]);
    h = harness((r) => (isChild(r) ? { text: "never" } : p(r)));
    await h.run("go");
    expect(results(h)[0]).toMatchObject({ isError: true });
    expect(h.provider.requests.filter(isChild)).toHaveLength(0);
  });

  it("resume keeps the chosen model and thinking (not the parent's), and refuses model/thinking passed with resume", async () => {
    let id = "";
    const p = parent([() => ({ prompt: "look", model: "big-model", thinking: "low" }), () => ({ resume: id, prompt: "more" }), () => ({ resume: id, prompt: "more", model: "small-model" })]);
    h = harness((r) => (isChild(r) ? { text: `report ${r.messages.length}` } : p(r)), { models: MODELS });
    await h.run("first");
    id = idOf(results(h)[0]!.content);
    await h.run("second");
    expect(results(h)[1]).toMatchObject({ isError: false });
    await h.run("third");
    expect(results(h)[2]).toMatchObject({ isError: true, content: expect.stringMatching(/model cannot be combined with resume — a resumed child keeps its profile, model/) });
    const child = h.provider.requests.filter(isChild);
    expect(child.map((r) => r.model)).toEqual(["big-model", "big-model"]);
    expect(child[1]!.thinking).toEqual(child[0]!.thinking);
    expect(child[1]!.thinking).toMatchObject({ type: "on" });
  });

  it("a child created before models were chosen per dispatch (no modelFrom in its header) resumes as before", async () => {
    let id = "";
    const p = parent([() => ({ prompt: "look" }), () => ({ resume: id, prompt: "more" })]);
    h = harness((r) => (isChild(r) ? { text: "r" } : p(r)), { models: MODELS });
    await h.run("first");
    id = idOf(results(h)[0]!.content);
    expect(h.store.readHeader(id).modelFrom).toBeUndefined();
    await h.run("second");
    expect(results(h)[1]).toMatchObject({ isError: false });
    expect(h.provider.requests.filter(isChild).map((r) => r.model)).toEqual(["scripted-model", "scripted-model"]);
  });
});
