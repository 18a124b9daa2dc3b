import { describe, expect, it } from "vitest";
import { livePlan, MIN_PANE_WIDTH, PANE_CHROME_ROWS, type LivePlan } from "./live-plan.js";
import { screenLayout } from "./screen-layout.js";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);
const planRows = (p: LivePlan) => p.groups.reduce((n, g) => n + g.rows, 0) + p.otherRows + (p.assistantTail > 0 ? p.assistantTail + 1 : 0);

describe("livePlan", () => {
  it("puts full panes side by side when the terminal is wide, one per row when narrow", () => {
    const wide = livePlan({ paneGroups: [{ ids: ids(2) }], otherRows: 0, hasAssistant: false }, 160, 40);
    expect(wide.groups[0]).toMatchObject({ mode: "full", perRow: 2, paneWidth: 80 });
    const narrow = livePlan({ paneGroups: [{ ids: ids(2) }], otherRows: 0, hasAssistant: false }, MIN_PANE_WIDTH * 2 - 1, 40);
    expect(narrow.groups[0]).toMatchObject({ mode: "full", perRow: 1 });
  });

  for (const [columns, rows] of [[80, 24], [160, 45]] as const) {
    for (const n of [1, 4, 8, 16]) {
      it(`${n} children with a streaming answer fit the live rows of ${columns}×${rows}, every child shown or counted`, () => {
        const live = screenLayout({ mode: "inline", columns, rows, promptRows: 1, approvalRows: 0, picker: false, sidebar: false, overlay: false }).liveRows;
        const plan = livePlan({ paneGroups: [{ ids: ids(n) }], otherRows: 2, hasAssistant: true }, columns, live);
        expect(planRows(plan)).toBeLessThanOrEqual(live);
        const g = plan.groups[0]!;
        expect(g.mode === "full" ? g.shown.length : g.shown.length + g.hidden).toBe(n);
        if (g.mode === "compact" && g.hidden > 0) expect(g.rows).toBe(g.shown.length + 1); // the "+N more" row
        expect(plan.assistantTail).toBeGreaterThanOrEqual(1);
      });
    }
  }

  it("at 80×24 four children become compact rows, and the focused one is drawn as a pane among them", () => {
    const live = screenLayout({ mode: "inline", columns: 80, rows: 24, promptRows: 1, approvalRows: 0, picker: false, sidebar: false, overlay: false }).liveRows;
    const plain = livePlan({ paneGroups: [{ ids: ids(4) }], otherRows: 1, hasAssistant: false }, 80, live);
    expect(plain.groups[0]).toMatchObject({ mode: "compact", hidden: 0, rows: 4 });
    const focused = livePlan({ paneGroups: [{ ids: ids(4) }], otherRows: 1, hasAssistant: false }, 80, live, "c2");
    expect(focused.groups[0]).toMatchObject({ mode: "compact", expanded: "c2", hidden: 0 });
    expect(focused.groups[0]!.rows).toBeGreaterThan(4 + PANE_CHROME_ROWS - 1);
    expect(planRows(focused)).toBeLessThanOrEqual(live);
  });

  it("keeps the focused child among the shown rows when not all rows fit", () => {
    const plan = livePlan({ paneGroups: [{ ids: ids(16) }], otherRows: 0, hasAssistant: false }, 80, 6, "c15");
    const g = plan.groups[0]!;
    expect(g.shown).toContain("c15");
    expect(g.shown.length + g.hidden).toBe(16);
    expect(g.rows).toBeLessThanOrEqual(6);
  });

  it("gives the streaming text the rows the panes leave", () => {
    expect(livePlan({ paneGroups: [], otherRows: 2, hasAssistant: true }, 100, 30).assistantTail).toBe(30 - 2 - 1);
    const withPanes = livePlan({ paneGroups: [{ ids: ids(2) }], otherRows: 2, hasAssistant: true }, 100, 30);
    expect(withPanes.assistantTail).toBe(30 - 2 - withPanes.groups[0]!.rows - 1);
  });
});

describe("screenLayout", () => {
  const base = { promptRows: 1, approvalRows: 0, picker: false, sidebar: false, overlay: false };

  it("keeps the frame one row shorter than the terminal and shares it out exactly", () => {
    for (const [columns, rows] of [[80, 24], [160, 45]] as const) {
      for (const mode of ["inline", "fullscreen"] as const) {
        const l = screenLayout({ ...base, mode, columns, rows });
        expect(l.frameRows).toBe(rows - 1);
        expect(l.bottomRows + l.regionRows).toBe(l.frameRows);
      }
    }
  });

  it("stands the sidebar beside the transcript in a wide full-screen terminal, not in a narrow one", () => {
    const wide = screenLayout({ ...base, mode: "fullscreen", columns: 160, rows: 45 });
    expect(wide.sidebar.placement).toBe("column");
    expect(wide.regionColumns + wide.sidebar.columns).toBe(160);
    expect(wide.sidebar.rows).toBe(wide.regionRows);
    expect(screenLayout({ ...base, mode: "fullscreen", columns: 160, rows: 45, sidebarHidden: true }).sidebar.placement).toBe("none");
    expect(screenLayout({ ...base, mode: "fullscreen", columns: 80, rows: 24 }).sidebar.placement).toBe("none");
    const asked = screenLayout({ ...base, mode: "fullscreen", columns: 80, rows: 24, sidebar: true });
    expect(asked.sidebar.placement).toBe("stacked");
    expect(asked.liveRows + asked.sidebar.rows).toBe(asked.regionRows);
  });

  it("inline: the sidebar goes beside the live items when wide, and a child's transcript replaces both", () => {
    expect(screenLayout({ ...base, mode: "inline", columns: 120, rows: 40, sidebar: true }).sidebar.placement).toBe("column");
    expect(screenLayout({ ...base, mode: "inline", columns: 120, rows: 40, sidebar: true, overlay: true }).sidebar.placement).toBe("none");
    expect(screenLayout({ ...base, mode: "inline", columns: 160, rows: 45 }).sidebar.placement).toBe("none");
  });

  it("a tall approval question and a long draft still leave the transcript a few rows", () => {
    const l = screenLayout({ ...base, mode: "inline", columns: 80, rows: 24, promptRows: 6, approvalRows: 40 });
    expect(l.regionRows).toBeGreaterThanOrEqual(3);
    expect(l.bottomRows + l.regionRows).toBe(23);
  });
});
