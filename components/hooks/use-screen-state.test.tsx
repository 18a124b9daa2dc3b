/** useScreenState: one store per screen; a change re-renders the screen, an action that changes nothing does not. */
import { Text } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import type { ScreenStore } from "../state/screen-state.js";
import { useScreenState } from "./use-screen-state.js";

const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

function Probe({ stores, renders }: { stores: ScreenStore[]; renders: { n: number } }) {
  const [screen, store] = useScreenState();
  stores.push(store);
  renders.n++;
  return <Text>{`hint=${screen.hint ?? "-"} history=${screen.history.join(",")}`}</Text>;
}

describe("useScreenState", () => {
  it("draws what is dispatched, keeps one store across renders, and an action that changes nothing adds no render", async () => {
    const stores: ScreenStore[] = [];
    const renders = { n: 0 };
    const app = render(<Probe stores={stores} renders={renders} />);
    expect(app.lastFrame()).toContain("hint=- history=");
    const store = stores[0]!;
    store.dispatch({ type: "hint", text: "busy" });
    store.dispatch({ type: "history_add", text: "fix it" });
    await settle();
    expect(app.lastFrame()).toContain("hint=busy history=fix it");
    expect(new Set(stores).size).toBe(1);
    const before = renders.n;
    store.dispatch({ type: "history_add", text: "fix it" }); // the same prompt again: no change
    store.dispatch({ type: "escape" }); // on the prompt already: no change
    await settle();
    expect(renders.n).toBe(before);
    app.unmount();
  });

  it("each screen has its own store", async () => {
    const stores: ScreenStore[] = [];
    const renders = { n: 0 };
    const a = render(<Probe stores={stores} renders={renders} />);
    const b = render(<Probe stores={stores} renders={renders} />);
    const [first, second] = [stores[0]!, stores.at(-1)!];
    expect(first).not.toBe(second);
    first.dispatch({ type: "hint", text: "only a" });
    await settle();
    expect(a.lastFrame()).toContain("hint=only a");
    expect(b.lastFrame()).toContain("hint=-");
    a.unmount();
    b.unmount();
  });
});
