/**
 * Eight streaming children on a ticking clock (fake timers drive useNow and the stream): the rows'
 * and panes' changing figures — elapsed time, tokens, a pane's body — change at most once a second
 * (the child tick), a row's activity words at most every 5 s with 8 rows (CHILD_WORDS_MS; fewer rows more often), and the glyph not at
 * all while the status holds; a new tool call shows at once, in a row and in a pane.
 */
import { cleanup, render } from "ink-testing-library";
import { useEffect, useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentEvent } from "../../src/protocol/events.js";
import { CHILD_TICK_MS, CHILD_WORDS_MS, PANE_BODY_MS } from "../state/child-status.js";
import { reduceChild, startChild } from "../state/child-reducer.js";
import type { ChildView } from "../state/transcript-types.js";
import { useNow } from "../hooks/use-now.js";
import type { PanePlan } from "../layout/live-plan.js";
import { PaneGroup } from "./PaneGroup.js";
import { stripAnsi } from "../testing/wait-for-frame.js";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const SECONDS = 3;
/** Each child gets an event this often (20 a second, faster than 50 tokens/s in 40-character deltas). */
const EVENT_MS = 50;

/** `count` (8) children streaming `event(i)` every EVENT_MS, drawn by a PaneGroup on the UI clock. */
function Streaming({ plan, event, count = 8 }: { plan: PanePlan; event: (n: number) => AgentEvent; count?: number }) {
  const now = useNow(true);
  const [children, setChildren] = useState<ChildView[]>(() =>
    Array.from({ length: count }, (_, i) => reduceChild(startChild({ childId: `20261204-120000-abcd${i}0`, prompt: `look at part ${i}`, resumed: false, at: Date.now() - i * 170 }), { type: "turn_start", turn: 1 }, Date.now())),
  );
  useEffect(() => {
    let n = 0;
    const timer = setInterval(() => {
      n++;
      setChildren((cs) => cs.map((c) => reduceChild(c, event(n), Date.now())));
    }, EVENT_MS);
    return () => clearInterval(timer);
  }, [event]);
  return <PaneGroup agents={children} now={now} plan={plan} />;
}

/** How many times `view(frame)` changed from one written frame to the next. */
function changes(frames: readonly string[], view: (frame: string) => string): number {
  let n = 0;
  let last: string | undefined;
  for (const f of frames) {
    const v = view(stripAnsi(f));
    if (last !== undefined && v !== last) n++;
    last = v;
  }
  return n;
}

async function stream(plan: PanePlan, event: (n: number) => AgentEvent, seconds = SECONDS, count = 8): Promise<string[]> {
  vi.useFakeTimers({ now: 1_000_000 });
  const app = render(<Streaming plan={plan} event={event} count={count} />);
  await vi.advanceTimersByTimeAsync(500);
  const from = app.frames.length;
  await vi.advanceTimersByTimeAsync(seconds * 1000);
  return app.frames.slice(from);
}

/** One running child that has streamed "reading", drawn by a PaneGroup as `plan` says; `add()` starts a tool call. */
async function oneChild(plan: PanePlan): Promise<{ frame: () => string; add: () => void }> {
  vi.useFakeTimers({ now: 1_000_000 });
  let add: (() => void) | undefined;
  function OneChild() {
    const now = useNow(true);
    const [child, setChild] = useState<ChildView>(() =>
      reduceChild(reduceChild(startChild({ childId: ids[0]!, prompt: "look", resumed: false, at: Date.now() }), { type: "turn_start", turn: 1 }, Date.now()), { type: "text_delta", text: "reading" }, Date.now()),
    );
    add = () => setChild((c) => reduceChild(c, { type: "tool_start", call: { type: "toolCall", id: "t1", name: "grep", arguments: { pattern: "login" } } }, Date.now()));
    return <PaneGroup agents={[child]} now={now} plan={plan} />;
  }
  const app = render(<OneChild />);
  // just past a tick (and a words tick): the next is ~1 s away
  await vi.advanceTimersByTimeAsync(CHILD_WORDS_MS - (Date.now() % CHILD_WORDS_MS) + 10);
  return { frame: () => stripAnsi(app.lastFrame()!), add: () => add!() };
}

const ids = Array.from({ length: 8 }, (_, i) => `20261204-120000-abcd${i}0`);
const compact: PanePlan = { mode: "compact", perRow: 1, paneWidth: 110, body: 0, shown: ids, hidden: 0, rows: 8 };
const full: PanePlan = { mode: "full", perRow: 2, paneWidth: 60, body: 3, shown: [], hidden: 0, rows: 32 };
/** Most changes in SECONDS at one a child tick (the first tick may fall either side of the window). */
const MOST = SECONDS * (1000 / CHILD_TICK_MS) + 1;

describe("eight streaming children on a ticking clock", () => {
  it("compact rows: thinking children (tokens growing, nothing else new) change the screen at most once a second", async () => {
    const frames = await stream(compact, () => ({ type: "thinking_delta", text: "x".repeat(40) }));
    const last = stripAnsi(frames.at(-1)!);
    expect(last.split("\n").filter((l) => l.includes("thinking…"))).toHaveLength(8);
    // The tokens did grow over the window: the figures are sampled, not frozen.
    expect(changes(frames, (f) => f)).toBeGreaterThanOrEqual(SECONDS);
    expect(changes(frames, (f) => f)).toBeLessThanOrEqual(MOST);
  });

  it("compact rows: streaming text changes the rows at most once a second, the activity's words at most every 5 s", async () => {
    const seconds = 15;
    const frames = await stream(compact, (n) => ({ type: "text_delta", text: ` word${n}` }), seconds);
    const last = stripAnsi(frames.at(-1)!).split("\n");
    expect(last.filter((l) => / tok · .*word\d+/.test(l))).toHaveLength(8);
    // The words did move on over the window (sampled, not frozen)… (read by their first whole word:
    // when the figures before them grow a column, the same words are cut a column shorter)
    const words = (f: string) => f.split("\n").map((l) => / tok · (?:…\S*\s)?(word\d+)/.exec(l)?.[1] ?? "").join("\n");
    expect(changes(frames, words)).toBeGreaterThanOrEqual(seconds / (CHILD_WORDS_MS / 1000) - 1);
    // …every 5 s, not on every child tick (15 of them) nor with each of the ~300 events…
    expect(changes(frames, words)).toBeLessThanOrEqual(seconds / (CHILD_WORDS_MS / 1000) + 1);
    // …while the figures move on the child tick.
    expect(changes(frames, (f) => f)).toBeGreaterThanOrEqual(seconds - 1);
    expect(changes(frames, (f) => f)).toBeLessThanOrEqual(seconds * (1000 / CHILD_TICK_MS) + 1);
  });

  it("compact rows: two streaming rows change their words on the child tick, four every 3 s", async () => {
    const words = (f: string) => f.split("\n").map((l) => / tok · (?:…\S*\s)?(word\d+)/.exec(l)?.[1] ?? "").join("\n");
    const seconds = 6;
    const two = await stream({ ...compact, shown: ids.slice(0, 2), rows: 2 }, (n) => ({ type: "text_delta", text: ` word${n}` }), seconds, 2);
    expect(changes(two, words)).toBeGreaterThanOrEqual(seconds - 1);
    expect(changes(two, words)).toBeLessThanOrEqual(seconds + 1);
    cleanup();
    vi.useRealTimers();
    const four = await stream({ ...compact, shown: ids.slice(0, 4), rows: 4 }, (n) => ({ type: "text_delta", text: ` word${n}` }), seconds * 2, 4);
    expect(changes(four, words)).toBeGreaterThanOrEqual(3);
    expect(changes(four, words)).toBeLessThanOrEqual(5);
  });

  it("compact rows: the glyph stays still from tick to tick while the status holds", async () => {
    const frames = await stream(compact, (n) => ({ type: "text_delta", text: ` word${n}` }));
    const glyphs = (f: string) =>
      f
        .split("\n")
        .map((l) => l.trimStart()[0] ?? "")
        .join("");
    expect(glyphs(stripAnsi(frames.at(-1)!))).toBe("●".repeat(8));
    expect(changes(frames, (f) => f)).toBeGreaterThanOrEqual(SECONDS - 1);
    expect(changes(frames, glyphs)).toBe(0);
  });

  it("compact rows: a new tool call shows before the next child tick", async () => {
    const one = await oneChild({ ...compact, shown: [ids[0]!], rows: 1 });
    expect(one.frame()).toContain("reading");
    one.add();
    await vi.advanceTimersByTimeAsync(50);
    expect(one.frame()).toContain("⏺ grep");
  });

  it("full panes: the headers and token lines change at most once a second, the bodies every PANE_BODY_MS, not with each delta", async () => {
    const seconds = 6;
    const frames = await stream(full, (n) => ({ type: "text_delta", text: ` word${n}` }), seconds);
    const chrome = (f: string) =>
      f
        .split("\n")
        .filter((l) => / · running · | tokens/.test(l))
        .join("\n");
    const bodies = (f: string) =>
      f
        .split("\n")
        .filter((l) => /word\d+/.test(l))
        .join("\n");
    expect(chrome(stripAnsi(frames.at(-1)!)).split("\n")).toHaveLength(16);
    // The bodies did follow the stream (~120 events each in the window)…
    expect(changes(frames, bodies)).toBeGreaterThanOrEqual((seconds * 1000) / PANE_BODY_MS - 1);
    // …every PANE_BODY_MS, not with each delta.
    expect(changes(frames, bodies)).toBeLessThanOrEqual((seconds * 1000) / PANE_BODY_MS + 1);
    const most = seconds * (1000 / CHILD_TICK_MS) + 1;
    expect(changes(frames, (f) => f)).toBeLessThanOrEqual(most);
    expect(changes(frames, chrome)).toBeLessThanOrEqual(most);
    expect(changes(frames, chrome)).toBeGreaterThanOrEqual(seconds - 1);
  });

  it("full panes: with one or two streaming the bodies follow the text as it arrives, with three or four once a second", async () => {
    const seconds = 2;
    const bodies = (f: string) =>
      f
        .split("\n")
        .filter((l) => /word\d+/.test(l))
        .join("\n");
    const two = await stream({ ...full, rows: 8 }, (n) => ({ type: "text_delta", text: ` word${n}` }), seconds, 2);
    // ~40 deltas each in the window: far more body changes than the child tick's 2
    expect(changes(two, bodies)).toBeGreaterThan(10);
    cleanup();
    vi.useRealTimers();
    const longer = 6;
    const four = await stream({ ...full, rows: 16 }, (n) => ({ type: "text_delta", text: ` word${n}` }), longer, 4);
    // once a child tick (6 in the window), not every PANE_BODY_MS (3) nor with each delta
    expect(changes(four, bodies)).toBeGreaterThanOrEqual((longer * 1000) / CHILD_TICK_MS - 1);
    expect(changes(four, bodies)).toBeLessThanOrEqual((longer * 1000) / CHILD_TICK_MS + 1);
  });

  it("full panes: a new tool call shows in the body before the next child tick", async () => {
    const one = await oneChild({ ...full, perRow: 1 });
    expect(one.frame()).toContain("reading");
    expect(one.frame()).not.toContain("grep");
    one.add();
    await vi.advanceTimersByTimeAsync(50);
    expect(one.frame()).toMatch(/. grep /);
  });
});
