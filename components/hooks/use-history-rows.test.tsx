/**
 * The history's row total: items appended to the same history are added to the last sum (each
 * measured once), while a new width or a history that is not an extension of
 * the last one is summed again.
 */
import { Text } from "ink";
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TranscriptItem } from "../state/transcript-types.js";

const calls = vi.hoisted(() => ({ n: 0 }));
vi.mock("../layout/virtual-window.js", () => ({
  finishedRows: (item: TranscriptItem) => {
    calls.n++;
    return item.kind === "user" ? 2 : 3;
  },
}));
const { useHistoryRows } = await import("./use-history-rows.js");

afterEach(() => cleanup());

const user = (i: number): TranscriptItem => ({ kind: "user", id: `u${i}`, done: true, text: `q ${i}` });
const history = Array.from({ length: 5_000 }, (_, i) => user(i));

let seen: { total: number } | undefined;
function Probe({ items, width }: { items: readonly TranscriptItem[]; width: number }) {
  const rows = useHistoryRows(items, width, false);
  seen = { total: rows.total };
  return <Text>{rows.total}</Text>;
}

describe("useHistoryRows", () => {
  it("adds appended items to the last sum instead of summing the whole history again", () => {
    calls.n = 0;
    const app = render(<Probe items={history} width={120} />);
    expect(seen!.total).toBe(10_000);
    expect(calls.n).toBe(5_000);
    calls.n = 0;
    const more = [...history, user(5_000), { kind: "assistant", id: "a", done: true, text: "answer" } as TranscriptItem];
    app.rerender(<Probe items={more} width={120} />);
    expect(seen!.total).toBe(10_005);
    expect(calls.n).toBe(2);
  });

  it("sums again at a new width and for a history that is not an extension", () => {
    const app = render(<Probe items={history} width={120} />);
    calls.n = 0;
    app.rerender(<Probe items={history} width={82} />);
    expect(calls.n).toBe(5_000);
    calls.n = 0;
    const edited = [user(-1), ...history.slice(1)];
    app.rerender(<Probe items={edited} width={82} />);
    expect(calls.n).toBe(5_000);
    expect(seen!.total).toBe(10_000);
  });
});
