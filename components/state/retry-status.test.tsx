/** The retry status: one live line per agent that counts down on the UI clock and goes when the call goes on or gives up. */
import { render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentEvent } from "../../src/protocol/events.js";
import { emptyUsage, type AssistantMessage } from "../../src/protocol/messages.js";
import type { RetryEvent } from "../../src/protocol/provider.js";
import { ChildRow } from "../views/ChildRow.js";
import { initialStreamState, reduceAll, type StreamAction } from "./agent-stream-reducer.js";
import { endChild, reduceChild, startChild } from "./child-reducer.js";
import type { ChildView, StreamState } from "./transcript-types.js";
import { useNow } from "../hooks/use-now.js";
import { SubagentPane } from "../views/SubagentPane.js";
import { TranscriptItemView } from "../views/TranscriptItemView.js";
import { stripAnsi } from "../testing/wait-for-frame.js";

afterEach(() => vi.useRealTimers());

const ev = (event: AgentEvent, at = 0): StreamAction => ({ type: "event", event, at });
const retry = (attempt: number, delayMs = 4000, label = "429 rate limited"): RetryEvent => ({ type: "retry", attempt, maxAttempts: 10, delayMs, reason: `Anthropic API rate limit hit (429 rate_limit_error): slow down`, label });
const answer: AssistantMessage = { role: "assistant", content: [{ type: "text", text: "at last" }], stopReason: "end_turn", usage: emptyUsage() };
const retryLines = (s: StreamState) => [...s.finished, ...s.live].filter((i) => i.kind === "info" && /rate limit|retrying/.test(i.text));

/** A storm: `n` retries of one call, 1 s of UI clock apart. */
function storm(n: number): StreamAction[] {
  return [{ type: "run_start", text: "hi", at: 0 }, ev({ type: "turn_start", turn: 1 }), ...Array.from({ length: n }, (_, i) => ev(retry(i + 1), i * 1000))];
}

describe("the main agent's retry line", () => {
  it("a storm of 8 retries is one live line, updated in place (nothing of it reaches the finished transcript)", () => {
    const s = reduceAll(initialStreamState(), storm(8));
    expect(retryLines(s)).toHaveLength(1);
    expect(s.finished.some((i) => i.kind === "info")).toBe(false);
    expect(s.live).toMatchObject([{ kind: "info", done: false, retry: { attempt: 8, maxAttempts: 10, label: "429 rate limited", until: 7000 + 4000 } }]);
  });

  it("goes when the retried call streams, leaving only the answer", () => {
    const s = reduceAll(initialStreamState(), [
      ...storm(8),
      ev({ type: "text_delta", text: "at last" }, 9000),
      ev({ type: "message", message: answer }, 9000),
      ev({ type: "turn_end", turn: 1, message: answer }, 9000),
      ev({ type: "agent_end", reason: "done", turns: 1, usage: emptyUsage() }, 9000),
      { type: "run_end", at: 9000 },
    ]);
    expect(retryLines(s)).toHaveLength(0);
    expect(s.live).toEqual([]);
    expect(s.finished.map((i) => i.kind)).toEqual(["user", "assistant"]);
  });

  it("becomes the one error line when the call gives up", () => {
    const s = reduceAll(initialStreamState(), [
      ...storm(9),
      ev({ type: "error", message: "Anthropic API rate limited; gave up after 10 attempts over 40s. Last error: slow down" }, 12_000),
      { type: "run_end", error: "gave up", at: 12_000 },
    ]);
    const infos = s.finished.filter((i) => i.kind === "info");
    expect(infos).toHaveLength(1);
    expect(infos[0]).toMatchObject({ tone: "error", text: expect.stringContaining("gave up after 10 attempts") });
  });

  it("draws one line that counts down on the clock (attempt = the one coming next)", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const s = reduceAll(initialStreamState(), [{ type: "run_start", text: "hi", at: 0 }, ev(retry(3, 4000), Date.now())]);
    const item = s.live[0]!;
    function Clocked() {
      return <TranscriptItemView item={item} now={useNow(true)} width={80} />;
    }
    const app = render(<Clocked />);
    const frame = () => stripAnsi(app.lastFrame() ?? "");
    expect(frame()).toBe("⟳ 429 rate limited · retrying in 4s · attempt 4/10");
    await vi.advanceTimersByTimeAsync(1000);
    expect(frame()).toBe("⟳ 429 rate limited · retrying in 3s · attempt 4/10");
    await vi.advanceTimersByTimeAsync(2500);
    expect(frame()).toBe("⟳ 429 rate limited · retrying in 1s · attempt 4/10");
    await vi.advanceTimersByTimeAsync(600);
    expect(frame()).toBe("⟳ 429 rate limited · retrying now · attempt 4/10");
    app.unmount();
  });
});

describe("a child whose call is retried", () => {
  function retryingChild(at: number): ChildView {
    let child = startChild({ childId: "20261203-100000-ab12cd", profile: "scout", prompt: "look", resumed: false, at });
    child = reduceChild(child, { type: "turn_start", turn: 1 }, at);
    return reduceChild(child, retry(2, 20_000, "connection refused"), at);
  }

  it("its pane says it is retrying, counting down, not `no output for Ns`", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const child = retryingChild(Date.now());
    function Clocked() {
      return <SubagentPane child={child} now={useNow(true)} width={100} />;
    }
    const app = render(<Clocked />);
    expect(stripAnsi(app.lastFrame() ?? "")).toContain("scout · look · connection refused · retrying in 20s · attempt 3/10");
    await vi.advanceTimersByTimeAsync(15_000);
    const frame = stripAnsi(app.lastFrame() ?? "");
    expect(frame).toContain("connection refused · retrying in 5s · attempt 3/10");
    expect(frame).not.toContain("no output");
    app.unmount();
  });

  it("its compact row says so too, and the mark goes at its next progress", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    let child = retryingChild(Date.now());
    function Clocked({ c }: { c: ChildView }) {
      return <ChildRow child={c} now={useNow(true)} width={120} />;
    }
    const app = render(<Clocked c={child} />);
    await vi.advanceTimersByTimeAsync(12_000);
    expect(stripAnsi(app.lastFrame() ?? "")).toContain("connection refused · retrying in 8s · attempt 3/10");
    child = reduceChild(child, { type: "text_delta", text: "found it" }, Date.now());
    app.rerender(<Clocked c={child} />);
    await vi.advanceTimersByTimeAsync(300);
    expect(stripAnsi(app.lastFrame() ?? "")).not.toContain("retrying");
    expect(child.retry).toBeUndefined();
    app.unmount();
  });
});

describe("a child that gave up retrying", () => {
  it("its summary line cuts the reason, and details (Ctrl-O) show all of it", () => {
    const reason = "Anthropic API error; gave up after 9 attempts over 101s. Last error: Anthropic API error (503 api_error): upstream unavailable (the child's server is down)";
    let c = startChild({ childId: "20261203-100000-ab12cd", prompt: "look", resumed: false, at: 0 });
    c = reduceChild(c, retry(8, 30_000, "503 server error"), 1000);
    c = reduceChild(c, { type: "error", message: reason }, 100_000);
    c = endChild(c, { status: "crash", turns: 1, usage: emptyUsage(), durationMs: 101_000, reason });
    expect(c.retry).toBeUndefined();
    const item = { kind: "tool" as const, id: "t1", done: true, name: "task", args: {}, status: "error" as const, child: c };
    const flat = (detail: boolean) => {
      const app = render(<TranscriptItemView item={item} now={0} width={80} detail={detail} />);
      const frame = stripAnsi(app.lastFrame() ?? "");
      app.unmount();
      return frame;
    };
    expect(flat(false)).not.toContain("the child's server is down");
    const open = flat(true).replace(/[│\s]+/g, " ");
    expect(open).toContain(reason.replace(/\s+/g, " "));
  });
});
