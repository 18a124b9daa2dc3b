/** A child whose model calls fail for good with a transient cause pauses and resumes instead of crashing (issue #25 item 1). */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentEvent } from "../../src/protocol/events.js";
import { ProviderError } from "../../src/protocol/provider-error.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import type { ScriptedTurn } from "../../src/providers/scripted.js";
import { isHistorySendable } from "../../src/session/repair.js";
import { wakeChild, type RunningChildren } from "../../src/subagents/runtime/running-children.js";
import { pauseCause } from "../../src/subagents/runtime/pause.js";
import { harness, type Harness, isChild, lastResult } from "../helpers/subagent-harness.js";

let h: Harness | undefined;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
  h?.cleanup();
  h = undefined;
});

const rateLimited = (retryAfterMs?: number) => new ProviderError("rate_limited", "Anthropic API rate limited; gave up after 9 attempts over 300s. Last error: 429", { status: 429, retryAfterMs });
const overloaded = () => new ProviderError("overloaded", "Anthropic API overloaded; gave up after 9 attempts", { status: 529 });
const reset = () => new ProviderError("network", "Could not reach the Anthropic API: read ECONNRESET", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });

function parentOnce(r: ModelRequest): ScriptedTurn {
  return r.messages.at(-1)!.role === "user" ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "look around" } }] } : { text: "main done" };
}
const childRequests = (hh: Harness) => hh.provider.requests.filter(isChild);
const paused = (hh: Harness) =>
  hh.events.flatMap((e) => (e.type === "subagent_event" && e.event.type === "paused" ? [e.event as Extract<AgentEvent, { type: "paused" }>] : []));

/** Lets real I/O and promise chains run (setImmediate is not faked) until `cond` holds. */
async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    if (cond()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never happened: ${what}`);
}

describe("a child paused on a transient failure", () => {
  it("429 with retry-after: pauses (not crash) for that long, then resumes with a valid request and no duplicated turn", async () => {
    let calls = 0;
    h = harness((r) => {
      if (!isChild(r)) return parentOnce(r);
      calls++;
      if (calls === 1) return { toolCalls: [{ name: "echo", arguments: { text: "a" } }] };
      if (calls === 2) return { error: rateLimited(40_000) };
      return { text: "THE REPORT" };
    });
    const run = h.run("go");
    await until(() => paused(h!).length === 1, "paused");
    const p = paused(h)[0]!;
    expect(p).toMatchObject({ label: "rate limited", delayMs: 40_000, pausedMs: 0, limitMs: 30 * 60_000 });
    // While paused, the transcript on disk is valid and resumable (a kill -9 now loses nothing).
    const child = h.store.list({ kind: "child" })[0]!;
    const saved = h.store.load(child.id).messages;
    expect(saved.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(isHistorySendable(saved)).toBe(true);
    await vi.advanceTimersByTimeAsync(39_000);
    expect(childRequests(h)).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_000);
    await run;
    const requests = childRequests(h);
    expect(requests).toHaveLength(3);
    // The resumed request is the failed one again: same history, valid for the API, no repeated prompt.
    expect(requests[2]!.messages).toEqual(requests[1]!.messages);
    expect(isHistorySendable(requests[2]!.messages)).toBe(true);
    expect(requests[2]!.messages.filter((m) => m.role === "user")).toHaveLength(1);
    const res = lastResult(h);
    expect(res.isError).toBe(false);
    expect(res.content).toContain("THE REPORT");
    expect(res.content).toMatch(/\[task\] ok · 2 turns/);
    expect(h.events.some((e) => e.type === "subagent_event" && e.event.type === "resumed")).toBe(true);
    expect(h.store.load(child.id).messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
  });

  it("529 overloaded then a connection reset: backs off 15 s then 30 s and finishes", async () => {
    let calls = 0;
    h = harness((r) => {
      if (!isChild(r)) return parentOnce(r);
      calls++;
      if (calls === 1) return { error: overloaded() };
      if (calls === 2) return { error: reset() };
      return { text: "fine" };
    });
    const run = h.run("go");
    await until(() => paused(h!).length === 1, "first pause");
    expect(paused(h)[0]).toMatchObject({ label: "overloaded", delayMs: 15_000 });
    await vi.advanceTimersByTimeAsync(15_000);
    await until(() => paused(h!).length === 2, "second pause");
    expect(paused(h)[1]).toMatchObject({ label: "connection reset", delayMs: 30_000, pausedMs: 15_000 });
    await vi.advanceTimersByTimeAsync(30_000);
    await run;
    expect(lastResult(h)).toMatchObject({ isError: false });
    expect(lastResult(h).content).toContain("fine");
    expect(childRequests(h).every((r) => isHistorySendable(r.messages) && r.messages.length === 1)).toBe(true);
  });

  it("gives up after the pause limit and ends as a crash with its reason and the resume id", async () => {
    h = harness((r) => (isChild(r) ? { error: rateLimited() } : parentOnce(r)), { pauseLimitMs: 60_000 });
    const run = h.run("go");
    await until(() => paused(h!).length === 1, "first pause");
    await vi.advanceTimersByTimeAsync(15_000);
    await until(() => paused(h!).length === 2, "second pause");
    await vi.advanceTimersByTimeAsync(30_000);
    await run;
    // 15 s + 30 s paused; the next wait (60 s) would pass the 60 s limit.
    expect(paused(h)).toHaveLength(2);
    const res = lastResult(h);
    expect(res.isError).toBe(true);
    expect(res.content).toMatch(/\[task\] child failed after \d+ turns?: Anthropic API rate limited.*\(paused 45s in all, limit 60s\)/);
    expect(res.content).toMatch(/continue it with task\(\{resume: "/);
    const end = h.events.find((e) => e.type === "subagent_end");
    expect(end).toMatchObject({ summary: { status: "crash" } });
  });

  it("the person's key (wakeChild) ends the pause at once", async () => {
    const running: RunningChildren = new Map();
    let calls = 0;
    h = harness(
      (r) => {
        if (!isChild(r)) return parentOnce(r);
        return ++calls === 1 ? { error: rateLimited(120_000) } : { text: "woken" };
      },
      { running },
    );
    const run = h.run("go");
    await until(() => paused(h!).length === 1, "paused");
    const id = [...running.keys()][0]!;
    expect(wakeChild(running, id)).toBe(true);
    await run;
    expect(lastResult(h).content).toContain("woken");
    expect(h.events.some((e) => e.type === "subagent_event" && e.event.type === "resumed" && e.event.early)).toBe(true);
    expect(wakeChild(running, id)).toBe(false);
  });

  it("a headless child's timeout still bounds a pause", async () => {
    h = harness((r) => (isChild(r) ? { error: rateLimited(600_000) } : parentOnce(r)), { defaultTimeoutMs: 300 });
    // AbortSignal.timeout runs on the real clock; the 600 s pause on the fake one never ends by itself.
    await h.run("go");
    expect(paused(h)).toHaveLength(1);
    expect(lastResult(h).content).toMatch(/timed out after 300 ms/);
  });

  it("a failure that is not transient (bad key, a 400) still crashes at once", async () => {
    expect(pauseCause(new ProviderError("auth", "bad key", { status: 401 }))).toBeUndefined();
    expect(pauseCause(new ProviderError("api", "invalid request", { status: 400 }))).toBeUndefined();
    expect(pauseCause(new ProviderError("api", "Anthropic API error (503 error): down", { status: 503 }))).toBe("server error 503");
    expect(pauseCause(new ProviderError("api", "You have reached your usage limit", { status: 400 }))).toBe("usage limit");
    h = harness((r) => (isChild(r) ? { error: new ProviderError("auth", "Anthropic API rejected the credentials", { status: 401 }) } : parentOnce(r)));
    await h.run("go");
    expect(paused(h)).toHaveLength(0);
    expect(lastResult(h).content).toMatch(/child failed after 0 turns: Anthropic API rejected the credentials/);
  });
});
