/**
 * Bytes on the terminal for eight panes (two side by side, three body rows) drawn inline by our
 * frame owner: a new line in every pane (shown when its body is next redrawn: PANE_BODY_MS) moves each row of panes by the terminal and writes about one row a pane and the head's
 * figures, not every body row; and the screen is what a fresh draw shows.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { reduceChild, startChild } from "../state/child-reducer.js";
import { PANE_BODY_MS } from "../state/child-status.js";
import type { ChildView } from "../state/transcript-types.js";
import { renderOwned } from "../testing/owned-render.js";
import type { PanePlan } from "../layout/live-plan.js";
import { PaneGroup } from "./PaneGroup.js";
import { XtermScreen } from "../testing/xterm-screen.js";
import { stripAnsi } from "../testing/wait-for-frame.js";

/** Ink writes no frames when it thinks it runs in CI (its is-in-ci check). */
const isInCi = ["CI", "CONTINUOUS_INTEGRATION"].some((k) => k in process.env && process.env[k] !== "0" && process.env[k] !== "false");

const NOW = 1_000_000;
const plan: PanePlan = { mode: "full", perRow: 2, paneWidth: 60, body: 3, shown: [], hidden: 0, rows: 32 };
const words = ["the", "login", "is", "handled", "in", "src/auth/login.ts,", "which", "verifies", "request", "and", "redirects", "user"];
/** Line n of a child's text: ~50 characters, different from its neighbours. */
const line = (n: number) => `${n}. ${Array.from({ length: 8 }, (_, w) => words[(n * 5 + w * ((n % 3) + 1)) % words.length]).join(" ")}`.slice(0, 52);

/** Eight children, each having streamed lines 0…n-1. */
function children(n: number): ChildView[] {
  return Array.from({ length: 8 }, (_, i) => {
    let c = reduceChild(startChild({ childId: `20261204-120000-abcd${i}0`, prompt: `look at part ${i}`, resumed: false, at: NOW - 5_000 }), { type: "turn_start", turn: 1 }, NOW);
    for (let k = 0; k < n; k++) c = reduceChild(c, { type: "text_delta", text: `${line(k)}\n` }, NOW);
    return c;
  });
}

function fakeTty(columns: number, rows: number) {
  const writes: string[] = [];
  const tty = Object.assign(new PassThrough(), { rows, columns, isTTY: true }) as unknown as NodeJS.WriteStream;
  tty.write = ((chunk: string) => writes.push(chunk) > 0) as NodeJS.WriteStream["write"];
  return { tty, writes };
}

const settle = () => new Promise((r) => setTimeout(r, 80));
const markers = (s: string) => s.replaceAll("\u001b[?2026h", "").replaceAll("\u001b[?2026l", "").replace(/\u001b\[\?25[hl]/g, "");

describe.skipIf(isInCi)("eight panes streaming, inline, on the byte stream", () => {
  it("a new line in every pane writes about one row a pane, and the screen is a fresh draw's", async () => {
    const { tty, writes } = fakeTty(120, 45);
    const term = new XtermScreen(120, 45);
    const view = (n: number, now = NOW) => <PaneGroup agents={children(n)} now={now} plan={plan} />;
    const app = renderOwned(view(6), tty);
    await settle();
    await term.write(markers(writes.join("")));
    const perLine: number[] = [];
    for (let n = 7; n <= 10; n++) {
      writes.length = 0;
      app.rerender(view(n, NOW + (n - 6) * PANE_BODY_MS)); // the body is redrawn every PANE_BODY_MS
      await settle();
      const bytes = markers(writes.join(""));
      await term.write(bytes);
      perLine.push(bytes.length);
      expect(bytes).toContain(line(n - 1)); // the new line…
      expect(bytes).not.toContain(line(n - 2)); // …and not the rows that moved up
    }
    // The next child tick (the token figures are sampled once a tick), then what a fresh draw of it shows.
    writes.length = 0;
    app.rerender(view(10, NOW + 5 * PANE_BODY_MS));
    await settle();
    await term.write(markers(writes.join("")));
    const fresh = fakeTty(120, 45);
    const again = renderOwned(view(10, NOW + 5 * PANE_BODY_MS), fresh.tty);
    await settle();
    const freshTerm = new XtermScreen(120, 45);
    await freshTerm.write(markers(fresh.writes.join("")));
    again.unmount();
    app.unmount();
    const rowsOf = (t: XtermScreen) => t.rows().filter((l) => l !== "");
    expect(rowsOf(term)).toEqual(rowsOf(freshTerm));
    expect(rowsOf(term).join("\n")).toContain(stripAnsi(line(9)));
    // Eight new rows of ~52 characters with their borders, four bands moved, each head's elapsed
    // time and tokens (~30 bytes a pane): well under the 24 body rows' ~1,400 characters.
    term.dispose();
    freshTerm.dispose();
    for (const n of perLine) expect(n).toBeLessThan(8 * 52 + 8 * 40 + 4 * 20 + 8 * 30);
  });
});
