import { cleanup, render } from "ink-testing-library";
import { Text } from "ink";
import { afterEach, describe, expect, it } from "vitest";
import { emptyUsage } from "../../src/protocol/messages.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { BEL, notificationBytes, TerminalNotifier, type NotifyMode } from "./terminal-notify.js";
import { MAIN_RUN_NOTIFY_MS, NotifyTracker } from "../state/notify-triggers.js";
import { initialStreamState, reduceAll, type StreamAction } from "../state/agent-stream-reducer.js";
import type { StreamState } from "../state/transcript-types.js";
import { useTerminalNotify } from "../hooks/use-terminal-notify.js";

afterEach(() => cleanup());

const ITERM = { TERM_PROGRAM: "iTerm.app" };
const VTE = { VTE_VERSION: "7600", TERM: "xterm-256color" };

describe("notification bytes", () => {
  it("off writes nothing, bell writes BEL, desktop writes OSC 9 / OSC 777 where the terminal shows it, else BEL", () => {
    expect(notificationBytes("off", "x", ITERM)).toBe("");
    expect(notificationBytes("bell", "x", ITERM)).toBe(BEL);
    expect(notificationBytes("desktop", "Ink: scout · map auth finished", ITERM)).toBe("\u001b]9;Ink: scout · map auth finished\u0007");
    expect(notificationBytes("desktop", "a; b", VTE)).toBe("\u001b]777;notify;Ink;a, b\u0007");
    expect(notificationBytes("desktop", "x", { TERM: "xterm-256color" })).toBe(BEL);
    // Inside tmux (passthrough is off by default): BEL, even in a terminal that shows OSC 9.
    expect(notificationBytes("desktop", "x", { ...ITERM, TMUX: "/tmp/tmux-1000/default,1,0" })).toBe(BEL);
    // Control characters never end the OSC early.
    expect(notificationBytes("desktop", "evil\u0007\u001b]0;title", ITERM)).toBe("\u001b]9;evil ]0;title\u0007");
  });
});

describe("TerminalNotifier", () => {
  function notifier(mode: NotifyMode, isTTY = true) {
    const writes: string[] = [];
    let now = 0;
    const n = new TerminalNotifier({ mode, isTTY, write: (d) => writes.push(d), env: ITERM, clock: () => now, burstMs: 2000 });
    return { writes, n, at: (t: number) => (now = t) };
  }

  it("writes the bytes of its mode, and nothing when off or not a terminal", () => {
    for (const [mode, bytes] of [["bell", [BEL]], ["desktop", ["\u001b]9;done\u0007"]], ["off", []]] as const) {
      const t = notifier(mode);
      t.n.notify("done");
      expect(t.writes).toEqual(bytes);
    }
    const piped = notifier("bell", false);
    piped.n.notify("done");
    expect(piped.writes).toEqual([]);
  });

  it("rings once per burst of events", () => {
    const t = notifier("bell");
    expect(t.n.notify("a")).toBe(true);
    t.at(500);
    expect(t.n.notify("b")).toBe(false);
    t.at(2400); // 1.9 s after the last event: still the same burst
    expect(t.n.notify("c")).toBe(false);
    t.at(4500);
    expect(t.n.notify("d")).toBe(true);
    expect(t.writes).toEqual([BEL, BEL]);
  });
});

const ev = (event: AgentEvent, at = 0): StreamAction => ({ type: "event", event, at });
const base = () => initialStreamState({ cwd: "/x", model: "m", provider: "p", notices: [] }, [], []);
const run = (s: StreamState, actions: StreamAction[]) => reduceAll(s, actions);
const startRun: StreamAction = { type: "run_start", text: "go", at: 0 };
const childStart = (id: string, tool: string, description: string): StreamAction[] => [
  ev({ type: "tool_start", call: { type: "toolCall", id: tool, name: "task", arguments: {} } }),
  ev({ type: "subagent_start", childId: id, parentToolCallId: tool, description, prompt: "p", resumed: false }),
];
const childEnd = (id: string, tool: string, status: "ok" | "aborted" = "ok"): StreamAction => ev({ type: "subagent_end", childId: id, parentToolCallId: tool, summary: { status, turns: 1, usage: emptyUsage(), durationMs: 10 } });

describe("NotifyTracker", () => {
  it("names a child that ended, an agent that started waiting for approval, and a long run that ended", () => {
    const t = new NotifyTracker();
    let s = run(base(), [startRun]);
    expect(t.update(s, new Set(), 0)).toEqual([]);
    s = run(s, childStart("c1", "t1", "map the auth module"));
    expect(t.update(s, new Set(), 100)).toEqual([]);
    expect(t.update(s, new Set(["c1"]), 200)).toEqual(["general · map the auth module is waiting for your approval"]);
    expect(t.update(s, new Set(["c1"]), 300)).toEqual([]); // still the same question
    s = run(s, [childEnd("c1", "t1")]);
    expect(t.update(s, new Set(), 400)).toEqual(["general · map the auth module finished"]);
    s = run(s, [{ type: "run_end", at: 0 }]);
    expect(t.update(s, new Set(), MAIN_RUN_NOTIFY_MS)).toEqual(["the run finished"]);
  });

  it("names a background report that started a turn of the idle main agent, once per delivery; a delivery into a running turn is not news", () => {
    const t = new NotifyTracker();
    let s = run(base(), []);
    expect(t.update(s, new Set(), 0)).toEqual([]);
    s = run(s, [ev({ type: "background_delivery", childIds: ["c1"], startsTurn: true })]);
    expect(t.update(s, new Set(), 100)).toEqual(["a background report started a turn of the main agent"]);
    expect(t.update(s, new Set(), 200)).toEqual([]);
    s = run(s, [ev({ type: "background_delivery", childIds: ["c2"], startsTurn: false })]);
    expect(t.update(s, new Set(), 300)).toEqual([]);
  });

  it("says nothing for a short run, nor for what was there before it first looked", () => {
    const t = new NotifyTracker();
    let s = run(base(), [startRun, ...childStart("c1", "t1", "x"), childEnd("c1", "t1", "aborted")]);
    expect(t.update(s, new Set(["main"]), 0)).toEqual([]);
    s = run(s, [{ type: "run_end", at: 0 }]);
    expect(t.update(s, new Set(["main"]), 500)).toEqual([]);
    s = run(s, [startRun]);
    expect(t.update(s, new Set(), 1000)).toEqual([]);
    expect(t.update(s, new Set(["main"]), 1100)).toEqual(["the main agent is waiting for your approval"]);
  });
});

describe("useTerminalNotify", () => {
  function Probe({ state, waiting, mode, isTTY }: { state: StreamState; waiting: ReadonlySet<string>; mode: NotifyMode; isTTY: boolean }) {
    useTerminalNotify(mode, state, waiting, { isTTY, env: ITERM, clock: () => 0 });
    return <Text>screen</Text>;
  }
  const written = (app: ReturnType<typeof render>) => (app.stdout as unknown as { frames: string[] }).frames.join("");

  it("rings through Ink's stdout (its write helper) when a child ends", () => {
    let s = run(base(), [startRun, ...childStart("c1", "t1", "map auth")]);
    const app = render(<Probe state={s} waiting={new Set()} mode="desktop" isTTY />);
    expect(written(app)).not.toContain("\u001b]9;");
    s = run(s, [childEnd("c1", "t1")]);
    app.rerender(<Probe state={s} waiting={new Set()} mode="desktop" isTTY />);
    expect(written(app)).toContain("\u001b]9;Ink: general · map auth finished\u0007");
  });

  it("writes nothing when stdout is not a terminal", () => {
    let s = run(base(), [startRun, ...childStart("c1", "t1", "map auth")]);
    const app = render(<Probe state={s} waiting={new Set()} mode="bell" isTTY={false} />);
    s = run(s, [childEnd("c1", "t1")]);
    app.rerender(<Probe state={s} waiting={new Set(["main"])} mode="bell" isTTY={false} />);
    expect(written(app)).not.toContain(BEL);
  });
});
