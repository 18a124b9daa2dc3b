/** The stall mark on the real clock: fake timers drive useNow; nothing is passed in by hand. */
import { render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChildRow, STALL_MS } from "./ChildRow.js";
import { reduceChild, startChild } from "../state/child-reducer.js";
import type { ChildView } from "../state/transcript-types.js";
import { useNow } from "../hooks/use-now.js";

afterEach(() => vi.useRealTimers());

function Clocked({ child }: { child: ChildView }) {
  const now = useNow(true);
  return <ChildRow child={child} now={now} width={100} />;
}

describe("ChildRow on a ticking clock", () => {
  it("says `no output for Ns` once the child has been silent past the threshold, counts up, and clears on its next event", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    let child = startChild({ childId: "20261203-100000-ab12cd", profile: "scout", prompt: "look", resumed: false, at: Date.now() });
    child = reduceChild(child, { type: "turn_start", turn: 1 }, Date.now());
    const app = render(<Clocked child={child} />);
    await vi.advanceTimersByTimeAsync(STALL_MS - 1_000);
    expect(app.lastFrame()).not.toContain("no output");
    await vi.advanceTimersByTimeAsync(2_000);
    expect(app.lastFrame()).toMatch(new RegExp(`no output for ${Math.round((STALL_MS + 1_000) / 1000)}s`));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(app.lastFrame()).toMatch(new RegExp(`no output for ${Math.round((STALL_MS + 6_000) / 1000)}s`));
    // The next event: working again.
    child = reduceChild(child, { type: "text_delta", text: "found it" }, Date.now());
    app.rerender(<Clocked child={child} />);
    await vi.advanceTimersByTimeAsync(300);
    expect(app.lastFrame()).not.toContain("no output");
    app.unmount();
  });
});
