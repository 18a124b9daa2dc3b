import { describe, expect, it } from "vitest";
import { INITIAL_UI, overlayOffset, reduceUi, selectedIndex, withRunningPanes, type UiAction, type UiState } from "./ui-reducer.js";

const run = (actions: UiAction[], start: UiState = INITIAL_UI) => actions.reduce(reduceUi, start);
const panes = ["c1", "c2"];
const overlay = { childId: "c9", label: "general [c9]" };

describe("reduceUi: focus", () => {
  it("Tab cycles prompt → each running pane → sidebar → prompt; Shift-Tab goes back", () => {
    const seen: string[] = [];
    let s = INITIAL_UI;
    for (let i = 0; i < 4; i++) {
      s = reduceUi(s, { type: "tab", panes });
      seen.push(s.focus === "pane" ? `pane:${s.paneId}` : s.focus);
    }
    expect(seen).toEqual(["pane:c1", "pane:c2", "sidebar", "prompt"]);
    expect(run([{ type: "tab", backwards: true, panes }])).toMatchObject({ focus: "sidebar" });
    expect(run([{ type: "tab", backwards: true, panes }, { type: "tab", backwards: true, panes }])).toMatchObject({ focus: "pane", paneId: "c2" });
    expect(run([{ type: "tab", panes: [] }])).toMatchObject({ focus: "sidebar", paneId: undefined });
  });

  it("a focused pane whose child ended hands focus back to the prompt; Tab from it restarts the cycle", () => {
    const onC2 = run([{ type: "tab", panes }, { type: "tab", panes }]);
    expect(withRunningPanes(onC2, ["c2"])).toBe(onC2);
    expect(withRunningPanes(onC2, ["c1"])).toMatchObject({ focus: "prompt", paneId: undefined });
    expect(reduceUi(onC2, { type: "tab", panes: ["c1"] })).toMatchObject({ focus: "pane", paneId: "c1" });
  });

  it("Esc steps back: pane/sidebar → prompt, overlay → sidebar, resume → overlay or sidebar, picker → prompt", () => {
    expect(run([{ type: "tab", panes }, { type: "escape" }])).toMatchObject({ focus: "prompt", paneId: undefined });
    const inOverlay = run([{ type: "tab", panes: [] }, { type: "overlay_open", ...overlay }]);
    expect(reduceUi(inOverlay, { type: "escape" })).toMatchObject({ focus: "sidebar", overlay: undefined });
    const resumeFromOverlay = reduceUi(inOverlay, { type: "resume_ask", childId: "c9", label: "general [c9]" });
    expect(resumeFromOverlay).toMatchObject({ focus: "resume", resume: { childId: "c9" } });
    expect(reduceUi(resumeFromOverlay, { type: "escape" })).toMatchObject({ focus: "overlay", resume: undefined });
    const resumeFromSidebar = run([{ type: "tab", panes: [] }, { type: "resume_ask", childId: "c9", label: "x" }]);
    expect(reduceUi(resumeFromSidebar, { type: "escape" })).toMatchObject({ focus: "sidebar" });
    expect(run([{ type: "picker_open", rows: [] }, { type: "escape" }])).toMatchObject({ focus: "prompt", picker: undefined });
    expect(reduceUi(INITIAL_UI, { type: "escape" })).toBe(INITIAL_UI);
  });

  it("Tab does nothing inside the overlay, the resume line or the picker", () => {
    for (const s of [run([{ type: "overlay_open", ...overlay }]), run([{ type: "resume_ask", childId: "a", label: "a" }]), run([{ type: "picker_open", rows: [] }])]) {
      expect(reduceUi(s, { type: "tab", panes })).toBe(s);
    }
  });

  it("sending a resume (focus_prompt) closes the overlay and the resume line", () => {
    const s = run([{ type: "overlay_open", ...overlay }, { type: "resume_ask", childId: "c9", label: "l" }, { type: "focus_prompt" }]);
    expect(s).toMatchObject({ focus: "prompt", overlay: undefined, resume: undefined });
  });
});

describe("reduceUi: lists and scrolling", () => {
  it("moves the sidebar selection within the rows", () => {
    const ids = ["a", "b", "c"];
    expect(run([{ type: "sidebar_move", delta: 1, ids }, { type: "sidebar_move", delta: 5, ids }]).sidebarId).toBe("c");
    expect(run([{ type: "sidebar_move", delta: -1, ids }]).sidebarId).toBe("a");
    expect(run([{ type: "sidebar_move", delta: 1, ids: [] }])).toBe(INITIAL_UI);
    expect(selectedIndex(INITIAL_UI, ids)).toBe(0);
  });

  it("the selection stays on its child when new rows appear above it", () => {
    const onB = run([{ type: "sidebar_move", delta: 1, ids: ["a", "b", "c"] }]);
    expect(selectedIndex(onB, ["a", "b", "c"])).toBe(1);
    // A newly started child is listed first: the selection follows "b", not the index.
    expect(selectedIndex(onB, ["new", "a", "b", "c"])).toBe(2);
    expect(reduceUi(onB, { type: "sidebar_move", delta: 1, ids: ["new", "a", "b", "c"] }).sidebarId).toBe("c");
    expect(selectedIndex(onB, ["x", "y"])).toBe(0); // gone: the first row
  });

  it("a following overlay stays on the last line as the transcript grows, until scrolled up", () => {
    const live = run([{ type: "overlay_open", ...overlay, follow: true }]);
    expect(overlayOffset(live.overlay!, 10)).toBe(10);
    expect(overlayOffset(live.overlay!, 25)).toBe(25);
    const up = reduceUi(live, { type: "overlay_scroll", delta: -3, maxOffset: 25 });
    expect(up.overlay).toMatchObject({ offset: 22, follow: false });
    expect(overlayOffset(up.overlay!, 40)).toBe(22);
    const end = reduceUi(up, { type: "overlay_scroll", delta: Infinity, maxOffset: 40 });
    expect(end.overlay).toMatchObject({ offset: 40, follow: true });
    expect(overlayOffset(end.overlay!, 55)).toBe(55);
  });

  it("opens the overlay at the top and scrolls by lines, pages and to the ends within 0..maxOffset", () => {
    const s = run([{ type: "overlay_open", ...overlay }]);
    expect(s.overlay?.offset).toBe(0);
    const scroll = (state: UiState, delta: number) => reduceUi(state, { type: "overlay_scroll", delta, maxOffset: 20 });
    expect(scroll(s, -1)).toBe(s);
    expect(scroll(s, 1).overlay?.offset).toBe(1);
    expect(scroll(scroll(s, 9), 9).overlay?.offset).toBe(18);
    expect(scroll(s, 50).overlay?.offset).toBe(20);
    expect(scroll(s, Infinity).overlay?.offset).toBe(20);
    expect(scroll(scroll(s, Infinity), -Infinity).overlay?.offset).toBe(0);
    expect(reduceUi(s, { type: "overlay_scroll", delta: 3, maxOffset: -5 }).overlay?.offset).toBe(0);
    expect(reduceUi(INITIAL_UI, { type: "overlay_scroll", delta: 3, maxOffset: 5 })).toBe(INITIAL_UI);
  });

  it("the picker opens on its first row and moves within its rows", () => {
    const rows = [1, 2, 3].map((n) => ({ id: `s${n}`, at: n, prompt: `p${n}` }));
    const s = run([{ type: "picker_open", rows }]);
    expect(s).toMatchObject({ focus: "picker", picker: { index: 0 } });
    expect(run([{ type: "picker_move", delta: 1 }, { type: "picker_move", delta: 1 }, { type: "picker_move", delta: 1 }], s).picker?.index).toBe(2);
    expect(run([{ type: "picker_move", delta: -1 }], s).picker?.index).toBe(0);
  });
});
