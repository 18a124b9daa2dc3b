import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import type { SidebarRow } from "./hooks/sidebar-rows.js";
import { SessionPicker } from "./SessionPicker.js";
import { Sidebar } from "./Sidebar.js";
import { stripAnsi } from "./testing/wait-for-frame.js";
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
    expect(frame).toMatch(/ ● scout \[aaaaaa\] +5s map the auth module/);
    expect(frame).toMatch(/›⏹ general \[bbbbbb\] +2m find the tests/);
    expect(frame).toContain("earlier in this project");
    expect(frame).toMatch(/ · general \[cccccc\] +2h \(no prompt\)/);
    expect(frame).toContain("Enter transcript, then r resume");
  });

  it("scrolls a long list to keep the selection visible and says how many rows are hidden", () => {
    const many: SidebarRow[] = Array.from({ length: 12 }, (_, i) => ({ id: `c-${i}00000`, status: "ok", prompt: `prompt ${i}`, at: NOW, current: false }));
    const frame = stripAnsi(render(<Sidebar rows={many} selected={11} now={NOW} width={60} height={4} focused />).lastFrame()!);
    expect(frame).toContain("↑ 8 more");
    expect(frame).toContain("prompt 11");
    expect(frame).not.toContain("prompt 7");
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
