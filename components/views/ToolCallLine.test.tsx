import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { ToolCallLine, COMMAND_MAX_ROWS } from "./ToolCallLine.js";
import { itemLines } from "../layout/item-lines.js";
import type { ToolItem } from "../state/transcript-types.js";
import { stripAnsi } from "../testing/wait-for-frame.js";

const bash = (command: string, result?: string): ToolItem => ({ kind: "tool", id: "t1", done: true, name: "bash", args: { command }, status: "ok", result, durationMs: 1200 });

describe("ToolCallLine", () => {
  it("draws a long command whole, wrapped under the call line, in exactly the rows itemLines draws", () => {
    const command = `cd /srv/app && npm ci --no-audit && ${Array.from({ length: 12 }, (_, i) => `node scripts/step-${i}.js --flag`).join(" && ")} && rm -rf ./tmp-cache-7f3a && echo done`;
    expect(command.length).toBeGreaterThan(300);
    const item = bash(command, "ok\nsecond line");
    const { lastFrame } = render(<ToolCallLine item={item} now={0} width={80} />);
    const frame = stripAnsi(lastFrame() ?? "");
    const rows = frame.split("\n");
    expect(rows.length).toBe(itemLines(item, 80).length);
    expect(rows.every((r) => r.length <= 80)).toBe(true);
    // Every character of the command is on screen, the dangerous tail included.
    // (rows break at spaces, which the frame's line ends drop)
    const shown = rows.slice(1, -2).map((r) => r.slice(4)).join("");
    expect(shown.replace(/\s/g, "")).toBe(command.replace(/\s/g, ""));
    expect(frame).toContain("rm -rf ./tmp-cache-7f3a");
    expect(frame).not.toContain("…");
  });

  it("keeps a short command on the call line, and counts the rows of a huge one", () => {
    const short = bash("git status");
    const one = stripAnsi(render(<ToolCallLine item={short} now={0} width={80} />).lastFrame() ?? "");
    expect(one.split("\n")).toHaveLength(1);
    expect(one).toContain('command="git status"');
    const huge = bash(Array.from({ length: 40 }, (_, i) => `echo line ${i}`).join("\n"));
    const frame = stripAnsi(render(<ToolCallLine item={huge} now={0} width={80} />).lastFrame() ?? "");
    expect(frame.split("\n")).toHaveLength(itemLines(huge, 80).length);
    expect(frame.split("\n")).toHaveLength(1 + COMMAND_MAX_ROWS);
    expect(frame).toContain(`… +${40 - COMMAND_MAX_ROWS + 1} more rows of the command`);
  });

  it("draws a result kept only as its head: its first lines and the whole result's line count", () => {
    const item: ToolItem = { kind: "tool", id: "t1", done: true, name: "bash", args: { command: "seq 400" }, status: "ok", resultHead: ["1", "2", "3"], resultLines: 400, saved: { file: "/s.jsonl", callId: "t1" } };
    const frame = stripAnsi(render(<ToolCallLine item={item} now={0} width={80} />).lastFrame() ?? "");
    expect(frame).toContain("⎿  1");
    expect(frame).toContain("… +398 lines");
    expect(frame).not.toContain("Ctrl-T");
    expect(frame.split("\n")).toHaveLength(itemLines(item, 80).length);
    // Details asked for more lines than the UI kept: the row says where the rest is.
    const detail = stripAnsi(render(<ToolCallLine item={item} now={0} width={100} resultLines={200} />).lastFrame() ?? "");
    expect(detail).toContain("… +397 lines · Ctrl-T opens the latest tool output in full");
  });
});
