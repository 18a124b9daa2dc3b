import { describe, expect, it } from "vitest";
import { createScreenStore, EXITING_HINT, INITIAL_SCREEN, reduceScreen, type ScreenAction, type ScreenState } from "./screen-state.js";

const run = (actions: ScreenAction[], from: ScreenState = INITIAL_SCREEN) => actions.reduce(reduceScreen, from);

describe("reduceScreen", () => {
  it("starts on the prompt, sidebar auto, following the end, search closed, nothing armed", () => {
    expect(INITIAL_SCREEN.ui.focus).toBe("prompt");
    expect(INITIAL_SCREEN).toMatchObject({ sidebarPref: "auto", detail: false, epoch: 0, history: [], queued: [], draftRows: { main: 1, resume: 1 }, painted: false, scroll: { since: 0 }, search: { open: false, query: "", index: -1 }, exitArmed: false });
    expect(INITIAL_SCREEN.hint).toBeUndefined();
  });

  it("hands navigation actions to the ui reducer (Tab to a pane, Esc back, the picker)", () => {
    const s = run([{ type: "tab", panes: ["c1"] }]);
    expect(s.ui).toMatchObject({ focus: "pane", paneId: "c1" });
    expect(run([{ type: "escape" }], s).ui.focus).toBe("prompt");
    const picked = run([{ type: "picker_open", rows: [{ id: "a", at: 1, prompt: "p" }, { id: "b", at: 2, prompt: "q" }] }, { type: "picker_move", delta: 1 }]);
    expect(picked.ui.picker?.index).toBe(1);
    // Only the navigation part changes.
    expect(picked.history).toBe(INITIAL_SCREEN.history);
  });

  it("a navigation action that changes nothing returns the same state", () => {
    expect(reduceScreen(INITIAL_SCREEN, { type: "escape" })).toBe(INITIAL_SCREEN);
  });

  it("sidebar_pref sets the standing sidebar's preference; the same one again changes nothing", () => {
    const s = reduceScreen(INITIAL_SCREEN, { type: "sidebar_pref", pref: "hidden" });
    expect(s.sidebarPref).toBe("hidden");
    expect(reduceScreen(s, { type: "sidebar_pref", pref: "hidden" })).toBe(s);
    expect(reduceScreen(s, { type: "sidebar_pref", pref: "shown" }).sidebarPref).toBe("shown");
  });

  it("detail_toggle opens and closes details in place", () => {
    const s = reduceScreen(INITIAL_SCREEN, { type: "detail_toggle" });
    expect(s.detail).toBe(true);
    expect(reduceScreen(s, { type: "detail_toggle" }).detail).toBe(false);
  });

  it("view_clear starts a new inline history and goes back to following the end", () => {
    const up = run([{ type: "scroll_hold", anchor: { item: 2, row: 0 }, count: 5 }]);
    const s = reduceScreen(up, { type: "view_clear", count: 7 });
    expect(s.epoch).toBe(1);
    expect(s.scroll).toEqual({ since: 7 });
    expect(reduceScreen(s, { type: "view_clear", count: 7 }).epoch).toBe(2);
  });

  it("hint sets and clears the status bar's hint", () => {
    const s = reduceScreen(INITIAL_SCREEN, { type: "hint", text: "busy" });
    expect(s.hint).toBe("busy");
    expect(reduceScreen(s, { type: "hint", text: "busy" })).toBe(s);
    expect(reduceScreen(s, { type: "hint", text: undefined }).hint).toBeUndefined();
  });

  it("hint_clear_unless_exiting clears a hint but keeps the exiting one", () => {
    expect(run([{ type: "hint", text: "busy" }, { type: "hint_clear_unless_exiting" }]).hint).toBeUndefined();
    expect(run([{ type: "hint", text: EXITING_HINT }, { type: "hint_clear_unless_exiting" }]).hint).toBe(EXITING_HINT);
  });

  it("history_add appends a prompt, and the same prompt twice in a row once", () => {
    const s = run([{ type: "history_add", text: "a" }, { type: "history_add", text: "b" }, { type: "history_add", text: "b" }, { type: "history_add", text: "a" }]);
    expect(s.history).toEqual(["a", "b", "a"]);
    expect(reduceScreen(s, { type: "history_add", text: "a" })).toBe(s);
  });

  it("queue_add queues prompts in order; queue_pop takes the newest, queue_shift the oldest, queue_clear all", () => {
    const s = run([{ type: "queue_add", text: "a" }, { type: "queue_add", text: "b" }, { type: "queue_add", text: "c" }]);
    expect(s.queued).toEqual(["a", "b", "c"]);
    expect(reduceScreen(s, { type: "queue_pop" }).queued).toEqual(["a", "b"]);
    expect(reduceScreen(s, { type: "queue_shift" }).queued).toEqual(["b", "c"]);
    expect(reduceScreen(s, { type: "queue_clear" }).queued).toEqual([]);
    // An empty queue stays the same state.
    for (const type of ["queue_pop", "queue_shift", "queue_clear"] as const) expect(reduceScreen(INITIAL_SCREEN, { type })).toBe(INITIAL_SCREEN);
  });

  it("box_restore gives text back to the input box with a new seq each time, the same text too", () => {
    const s = reduceScreen(INITIAL_SCREEN, { type: "box_restore", text: "fix it" });
    expect(s.boxRestore).toEqual({ text: "fix it", seq: 1 });
    expect(reduceScreen(s, { type: "box_restore", text: "fix it" }).boxRestore).toEqual({ text: "fix it", seq: 2 });
  });

  it("draft_rows keeps each input box's rows apart", () => {
    const s = run([{ type: "draft_rows", box: "main", rows: 3 }]);
    expect(s.draftRows).toEqual({ main: 3, resume: 1 });
    expect(run([{ type: "draft_rows", box: "resume", rows: 2 }], s).draftRows).toEqual({ main: 3, resume: 2 });
    expect(reduceScreen(s, { type: "draft_rows", box: "main", rows: 3 })).toBe(s);
  });

  it("painted is set once", () => {
    const s = reduceScreen(INITIAL_SCREEN, { type: "painted" });
    expect(s.painted).toBe(true);
    expect(reduceScreen(s, { type: "painted" })).toBe(s);
  });

  it("scroll_hold holds the top row and counts unseen items from when scrolling up began", () => {
    const s = reduceScreen(INITIAL_SCREEN, { type: "scroll_hold", anchor: { item: 3, row: 1 }, count: 10 });
    expect(s.scroll).toEqual({ anchor: { item: 3, row: 1 }, since: 10 });
    // Scrolling further up later keeps the count from the first scroll up.
    expect(reduceScreen(s, { type: "scroll_hold", anchor: { item: 1, row: 0 }, count: 12 }).scroll).toEqual({ anchor: { item: 1, row: 0 }, since: 10 });
    // The same row again changes nothing.
    expect(reduceScreen(s, { type: "scroll_hold", anchor: { item: 3, row: 1 }, count: 12 })).toBe(s);
  });

  it("scroll_follow goes back to following the end; already following, nothing changes", () => {
    const s = run([{ type: "scroll_hold", anchor: { item: 0, row: 0 }, count: 4 }, { type: "scroll_follow", count: 6 }]);
    expect(s.scroll).toEqual({ since: 6 });
    expect(reduceScreen(s, { type: "scroll_follow", count: 9 })).toBe(s);
  });

  it("search_start opens an empty search, even after an earlier query", () => {
    const s = run([{ type: "search_start" }, { type: "search_edit", query: "log" }, { type: "search_jump", index: 2 }, { type: "search_close" }, { type: "search_start" }]);
    expect(s.search).toEqual({ open: true, query: "", index: -1 });
  });

  it("search_edit sets the query and resets the current hit", () => {
    const s = run([{ type: "search_start" }, { type: "search_edit", query: "lo" }, { type: "search_jump", index: 1 }, { type: "search_edit", query: "log" }]);
    expect(s.search).toEqual({ open: true, query: "log", index: -1 });
  });

  it("search_jump sets the current hit", () => {
    expect(run([{ type: "search_start" }, { type: "search_edit", query: "x" }, { type: "search_jump", index: 3 }]).search.index).toBe(3);
  });

  it("search_close closes and keeps the query (the view stays where the last hit put it)", () => {
    const s = run([{ type: "search_start" }, { type: "search_edit", query: "x" }, { type: "search_close" }]);
    expect(s.search).toEqual({ open: false, query: "x", index: -1 });
    expect(reduceScreen(s, { type: "search_close" })).toBe(s);
  });

  it("stop_ask opens the stop-the-children question; asked again without `then` it keeps what y was to do; stop_answered closes it", () => {
    const s = reduceScreen(INITIAL_SCREEN, { type: "stop_ask", count: 2, then: "exit" });
    expect(s.stopAsk).toEqual({ count: 2, then: "exit" });
    expect(reduceScreen(s, { type: "stop_ask", count: 3 }).stopAsk).toEqual({ count: 3, then: "exit" });
    expect(reduceScreen(s, { type: "stop_ask", count: 2, then: "exit" })).toBe(s);
    expect(reduceScreen(INITIAL_SCREEN, { type: "stop_ask", count: 1 }).stopAsk).toEqual({ count: 1 });
    expect(reduceScreen(s, { type: "stop_answered" }).stopAsk).toBeUndefined();
    expect(reduceScreen(INITIAL_SCREEN, { type: "stop_answered" })).toBe(INITIAL_SCREEN);
  });

  it("exit_arm and exit_disarm arm and disarm the Ctrl-C guard", () => {
    const s = reduceScreen(INITIAL_SCREEN, { type: "exit_arm" });
    expect(s.exitArmed).toBe(true);
    expect(reduceScreen(s, { type: "exit_arm" })).toBe(s);
    expect(reduceScreen(s, { type: "exit_disarm" }).exitArmed).toBe(false);
    expect(reduceScreen(INITIAL_SCREEN, { type: "exit_disarm" })).toBe(INITIAL_SCREEN);
  });
});

describe("createScreenStore", () => {
  it("dispatch applies the action at once and tells each listener; getState reads it back", () => {
    const store = createScreenStore();
    const heard: string[] = [];
    store.subscribe(() => heard.push(store.getState().hint ?? "-"));
    store.dispatch({ type: "hint", text: "one" });
    // Read at once (as a key handler does before any render): the next action sees the last.
    expect(store.getState().hint).toBe("one");
    store.dispatch({ type: "history_add", text: "p" });
    expect(heard).toEqual(["one", "one"]);
  });

  it("an action that changes nothing tells no one and keeps the snapshot", () => {
    const store = createScreenStore();
    const before = store.getState();
    let calls = 0;
    store.subscribe(() => calls++);
    store.dispatch({ type: "escape" });
    store.dispatch({ type: "hint_clear_unless_exiting" });
    expect(calls).toBe(0);
    expect(store.getState()).toBe(before);
  });

  it("an unsubscribed listener hears nothing more", () => {
    const store = createScreenStore();
    let calls = 0;
    const off = store.subscribe(() => calls++);
    store.dispatch({ type: "painted" });
    off();
    store.dispatch({ type: "detail_toggle" });
    expect(calls).toBe(1);
  });

  it("starts from the state it is given", () => {
    const store = createScreenStore({ ...INITIAL_SCREEN, sidebarPref: "hidden" });
    expect(store.getState().sidebarPref).toBe("hidden");
  });
});
