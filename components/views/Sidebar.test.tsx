import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { sidebarRows, transcriptChildren, type SidebarRow } from "../state/sidebar-rows.js";
import { startChild } from "../state/child-reducer.js";
import { childTick, runningElapsed } from "../state/child-status.js";
import type { SessionSummary } from "../../src/session/types.js";
import { SessionPicker } from "./SessionPicker.js";
import { LiveSidebar, Sidebar } from "./Sidebar.js";
import { stripAnsi, waitForFrame } from "../testing/wait-for-frame.js";
import { TranscriptOverlay } from "./TranscriptOverlay.js";

afterEach(() => cleanup());

const NOW = 10_000_000;
const rows: SidebarRow[] = [
  { id: "c-aaaaaa", status: "running", profile: "scout", prompt: "map the auth module", at: NOW - 5_000, current: true },
  { id: "c-bbbbbb", status: "aborted", prompt: "find the tests", at: NOW - 120_000, current: true },
  { id: "c-cccccc", status: "unknown", prompt: "", at: NOW - 7_200_000, current: false },
];

describe("Sidebar", () => {
  it("shows each child with status glyph, profile, short id, age and prompt, grouped, with the selection marked", () => {
    const frame = stripAnsi(render(<Sidebar rows={rows} selected={1} now={NOW} width={60} height={10} focused />).lastFrame()!);
    expect(frame).toContain("Child sessions (3)");
    expect(frame).toContain("this session");
    expect(frame).toMatch(/ ● scout +\[aaaaaa\] +5s map the auth module/);
    expect(frame).toMatch(/›⏹ general \[bbbbbb\] +2m find the tests/);
    expect(frame).toContain("earlier in this project");
    expect(frame).toMatch(/ · general \[cccccc\] +2h \(no prompt\)/);
  });

  it("has a column header over the agent, id, age and prompt columns", () => {
    const lines = stripAnsi(render(<Sidebar rows={rows} selected={0} now={NOW} width={60} height={10} focused />).lastFrame()!).split("\n");
    const header = lines.find((l) => /agent +id +age task/.test(l));
    expect(header).toBeDefined();
    const row = lines.find((l) => l.includes("find the tests"))!;
    // Each heading stands at its column: the age right-aligned over the ages, the prompt over the prompts.
    expect(row.indexOf("general")).toBe(header!.indexOf("agent"));
    expect(row.indexOf("[bbbbbb]")).toBe(header!.indexOf("id"));
    expect(row.indexOf("2m") + 2).toBe(header!.indexOf(" age ") + 4);
    expect(row.indexOf("find the tests")).toBe(header!.indexOf("task"));
    // No header over an empty list.
    expect(stripAnsi(render(<Sidebar rows={[]} selected={0} now={NOW} width={60} height={4} focused={false} />).lastFrame()!)).not.toMatch(/age +task/);
  });

  it("a finished child's age counts from its end in minutes and does not tick every second; a running one's does", () => {
    const ended = transcriptChildren([
      { kind: "tool", id: "t1", done: true, name: "task", args: {}, status: "ok", child: { ...startChild({ childId: "c-dddddd", prompt: "done one", resumed: false, at: NOW - 100_000 }), status: "ok", durationMs: 90_000 } },
      { kind: "tool", id: "t2", done: false, name: "task", args: {}, status: "running", child: startChild({ childId: "c-eeeeee", prompt: "live one", resumed: false, at: NOW - 100_000 }) },
    ]);
    expect(ended.find((r) => r.id === "c-dddddd")!.at).toBe(NOW - 10_000); // started 100s ago, ran 90s: ended 10s ago
    const at = (now: number) => stripAnsi(render(<Sidebar rows={ended} selected={0} now={now} width={60} height={10} focused={false} />).lastFrame()!);
    const rowOf = (frame: string, text: string) => frame.split("\n").find((l) => l.includes(text))!;
    for (const later of [0, 1_000, 20_000, 49_999]) expect(rowOf(at(NOW + later), "done one")).toMatch(/\[dddddd\] +<1m done one/);
    expect(rowOf(at(NOW + 50_000), "done one")).toMatch(/\[dddddd\] +1m done one/);
    expect(rowOf(at(NOW + 80_000), "done one")).toMatch(/\[dddddd\] +1m done one/);
    expect(rowOf(at(NOW), "live one")).toMatch(/1m live one/);
    expect(rowOf(at(NOW), "live one")).not.toEqual(rowOf(at(NOW + 60_000), "live one"));
  });

  it("groups earlier children under the session that started them, headings counted in the height, the selection kept in view", () => {
    const earlier: SidebarRow[] = [
      { id: "c-111111", status: "ok", prompt: "old a1", at: NOW - 50_000, current: false, parent: "20261201-090000-aaaaaa" },
      { id: "c-222222", status: "ok", prompt: "old b1", at: NOW - 10_000, current: false, parent: "20261202-090000-bbbbbb" },
      { id: "c-333333", status: "ok", prompt: "old a2", at: NOW - 20_000, current: false, parent: "20261201-090000-aaaaaa" },
    ];
    const sorted = sidebarRows([], earlier.map((r) => ({ id: r.id, path: "", size: 0, mtimeMs: r.at, kind: "child" as const, cwd: "/x", createdAt: "", parentId: r.parent, prompt: r.prompt, status: "ok" })) as unknown as SessionSummary[], "20261203-000000-cccccc");
    // The group with the newest child first; its children newest first.
    expect(sorted.map((r) => r.prompt)).toEqual(["old b1", "old a2", "old a1"]);
    const frame = stripAnsi(render(<Sidebar rows={sorted} selected={2} now={NOW} width={60} height={5} focused />).lastFrame()!);
    expect(frame).toContain("earlier: session bbbbbb");
    expect(frame).toContain("earlier: session aaaaaa");
    expect(frame.indexOf("session bbbbbb")).toBeLessThan(frame.indexOf("old b1"));
    expect(frame.indexOf("old b1")).toBeLessThan(frame.indexOf("session aaaaaa"));
    expect(frame).toMatch(/›.*\[111111\].*old a1/); // the selection is drawn
    // 5 rows: two headings and three children; at 3 rows the selected one is still there, under its heading.
    const small = stripAnsi(render(<Sidebar rows={sorted} selected={2} now={NOW} width={60} height={3} focused />).lastFrame()!);
    expect(small).toContain("old a1");
    expect(small).toContain("earlier: session aaaaaa");
    expect(small).not.toContain("old b1");
    expect(frame).toContain("Enter transcript, then r resume");
  });

  it("on screen, an idle sidebar moves its ages on by itself (its clock redraws it, nothing else changes)", async () => {
    let t = NOW;
    const done: SidebarRow[] = [{ id: "c-ffffff", status: "ok", prompt: "finished", at: NOW - 10_000, current: true }];
    const app = render(<LiveSidebar rows={done} selected={0} now={undefined} clock={() => t} refreshMs={20} width={60} height={5} focused={false} />);
    expect(stripAnsi(app.lastFrame()!)).toMatch(/\[ffffff\] +<1m finished/);
    t = NOW + 120_000;
    await waitForFrame(app.lastFrame, (f) => /\[ffffff\] +2m finished/.test(f), { what: "the age moved on to 2m" });
  });

  it("a running child's age is the elapsed time its pane shows at the screen's clock, not a second apart", () => {
    const startedAt = NOW - 4_700;
    const running: SidebarRow[] = [{ id: "c-dddddd", status: "running", prompt: "still working", at: startedAt, current: true }];
    const screenNow = NOW + 600; // the pane reads 4s (its child tick is NOW)
    const pane = runningElapsed(startedAt, childTick(screenNow));
    expect(pane).toBe("4s");
    const app = render(<LiveSidebar rows={running} selected={0} now={screenNow} clock={() => NOW + 900} width={60} height={5} focused={false} />);
    expect(stripAnsi(app.lastFrame()!)).toMatch(new RegExp(`\\[dddddd\\] +${pane} still working`));
  });

  it("scrolls a long list to keep the selection visible and says how many rows are hidden", () => {
    const many: SidebarRow[] = Array.from({ length: 12 }, (_, i) => ({ id: `c-${i}00000`, status: "ok", prompt: `prompt ${i}`, at: NOW, current: false }));
    const frame = stripAnsi(render(<Sidebar rows={many} selected={11} now={NOW} width={60} height={4} focused />).lastFrame()!);
    // Four rows: the group's heading and three children.
    expect(frame).toContain("↑ 9 more");
    expect(frame).toContain("earlier in this project");
    expect(frame).toContain("prompt 11");
    expect(frame).not.toContain("prompt 8");
    const empty = stripAnsi(render(<Sidebar rows={[]} selected={0} now={NOW} width={60} height={4} focused={false} />).lastFrame()!);
    expect(empty).toContain("No child sessions yet");
  });
});

describe("TranscriptOverlay and SessionPicker", () => {
  it("shows the window of lines at the offset and where it is", () => {
    const lines = Array.from({ length: 40 }, (_, i) => ({ text: `L${i}` }));
    const frame = stripAnsi(render(<TranscriptOverlay title="general [c] · ok" lines={lines} offset={10} height={5} width={70} />).lastFrame()!);
    expect(frame).toContain("general [c] · ok");
    expect(frame).toMatch(/L10\s/);
    expect(frame).toMatch(/L14\s/);
    expect(frame).not.toMatch(/L9\s|L15\s/);
    expect(frame).toContain("lines 11–15 of 40");
  });

  it("draws the child's text with Markdown styles, prompts and tool lines as they are", () => {
    const lines = [{ text: "› **do** it", tone: "user" as const }, { text: "## Findings" }, { text: "- the `auth` module" }];
    const frame = stripAnsi(render(<TranscriptOverlay title="t" lines={lines} offset={0} height={3} width={60} />).lastFrame()!);
    expect(frame).toContain("› **do** it");
    expect(frame).toMatch(/│ Findings/);
    expect(frame).toContain("• the auth module");
  });

  it("lists saved sessions newest first with age, short id and first prompt", () => {
    const picker = [
      { id: "20260101-000000-aaaaaa", at: NOW - 60_000, prompt: "newest question" },
      { id: "20260101-000000-bbbbbb", at: NOW - 86_400_000 * 3, prompt: "older question" },
    ];
    const frame = stripAnsi(render(<SessionPicker rows={picker} selected={1} now={NOW} width={80} height={5} />).lastFrame()!);
    expect(frame).toMatch(/ +1m +aaaaaa +newest question/);
    expect(frame).toMatch(/› +3d +bbbbbb +older question/);
  });
});
