/**
 * What is cut first is what matters least (issue #39 item 5, #41 item 3): at 60, 80 and 120
 * columns a child's description and short id stay whole while the model name, token counts and
 * cost give way; no row is ever wider than the width.
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import stringWidth from "string-width";
import { emptyUsage } from "../src/protocol/messages.js";
import { ChildRow } from "./views/ChildRow.js";
import { SubagentPane } from "./views/SubagentPane.js";
import { SubagentSummary, summaryParts } from "./views/SubagentSummary.js";
import { Sidebar } from "./views/Sidebar.js";
import { StatusBar } from "./views/StatusBar.js";
import { endChild, startChild } from "./state/child-reducer.js";
import type { SidebarRow } from "./state/sidebar-rows.js";
import { fitRow, fitRowText } from "./layout/fit-row.js";
import { stripAnsi } from "./testing/wait-for-frame.js";

afterEach(() => cleanup());

const ID = "20261206-003807-5d7c01";
const MODEL = "claude-sonnet-4-5-20250929";
const DESC = "configuration and docs of sessions";
const running = () => ({
  ...startChild({ childId: ID, profile: "scout", description: DESC, prompt: "Find configuration, routes or docs that mention sessions", resumed: false, at: 0, model: MODEL }),
  usage: { input: 12_000, output: 400, cacheRead: 0, cacheWrite: 0 },
});
const finished = () => ({
  ...endChild(running(), {
    status: "ok",
    turns: 3,
    usage: { input: 40_000, output: 1200, cacheRead: 0, cacheWrite: 0 },
    durationMs: 2900,
  }),
  report: "Report: the sessions are saved as append-only JSONL under the session store",
});

function lines(frame: string | undefined): string[] {
  return stripAnsi(frame ?? "").split("\n");
}
function fits(frame: string | undefined, columns: number): void {
  for (const line of lines(frame)) expect(stringWidth(line)).toBeLessThanOrEqual(columns);
}

describe("fitRow", () => {
  const parts = [
    { text: "✓ ", priority: 9, keep: true },
    { text: "scout", priority: 6, min: 4 },
    { text: " · find the login handler", priority: 8, keep: true, min: 8 },
    { text: " · claude-sonnet-4-5", priority: 0 },
    { text: " · 12k tokens", priority: 1 },
    { text: " — the login is handled in src/auth.ts", priority: 4, min: 12 },
    { text: " [ab12cd]", priority: 9, keep: true },
  ];
  it("drops the lowest priority first, cuts a part with min before dropping it, keeps the kept parts whole", () => {
    expect(fitRowText(parts, 200)).toBe("✓ scout · find the login handler · claude-sonnet-4-5 · 12k tokens — the login is handled in src/auth.ts [ab12cd]");
    expect(fitRowText(parts, 80)).toBe("✓ scout · find the login handler — the login is handled in src/auth.ts [ab12cd]");
    expect(fitRowText(parts, 60)).toBe("✓ scout · find the login handler — the login is ha… [ab12cd]");
    expect(fitRowText(parts, 44)).toBe("✓ scout · find the login handler [ab12cd]");
    expect(fitRowText(parts, 40)).toBe("✓ sco… · find the login handler [ab12cd]");
    expect(fitRowText(parts, 38)).toBe("✓  · find the login handler [ab12cd]");
    // Only the kept parts left and still too wide: the description is cut, the id stays.
    expect(fitRowText(parts, 24)).toBe("✓  · find the … [ab12cd]");
    // Narrower than the kept parts: the row itself is cut.
    expect(fitRowText(parts, 10)).toBe("✓  · find…");
    for (const w of [1, 5, 10, 24, 38, 60, 80, 120]) expect(stringWidth(fitRowText(parts, w))).toBeLessThanOrEqual(w);
  });

  it("counts wide characters as two cells", () => {
    const out = fitRow([{ text: "调查登录处理程序在哪里", priority: 8, keep: true, min: 4 }, { text: " [ab12cd]", priority: 9, keep: true }], 16);
    expect(stringWidth(out.map((p) => p.text).join(""))).toBeLessThanOrEqual(16);
    expect(out[1]!.text).toBe(" [ab12cd]");
  });
});

describe.each([60, 80, 120])("at %i columns", (columns) => {
  it("a running child's compact row keeps its description and id whole; the model and tokens go first", () => {
    const row = lines(render(<ChildRow child={running()} now={3000} width={columns} />).lastFrame());
    expect(row).toHaveLength(1);
    expect(row[0]).toContain(`scout · ${DESC} [5d7c01]`);
    expect(stringWidth(row[0]!)).toBeLessThanOrEqual(columns);
    if (columns <= 80) expect(row[0]).not.toContain("claude");
    if (columns >= 120) expect(row[0]).toContain(MODEL);
  });

  it("a finished child's summary line keeps its description and id whole; tokens go before the report", () => {
    // ink-testing-library draws 100 columns: wider rows are checked as the parts the line draws.
    const p = summaryParts(finished(), undefined, columns);
    const frame = columns <= 100 ? render(<SubagentSummary child={finished()} width={columns} />).lastFrame() : [p.glyph, p.profile, p.description, p.status, p.stats, p.gist, p.id].join("");
    const [line] = lines(frame);
    expect(lines(frame)).toHaveLength(1);
    expect(line).toMatch(new RegExp(`^✓ scout · ${DESC}.*\\[5d7c01\\]$`));
    fits(frame, columns);
    if (columns <= 80) expect(line).not.toContain("tokens");
    // The report's first line has room for more than a word.
    if (columns >= 80) expect(line).toContain("— Report: the sessions");
  });

  it("a live pane's header keeps the description; its figures row keeps the id while the model gives way", () => {
    const width = Math.min(columns, 60);
    const frame = render(<SubagentPane child={running()} now={3000} width={width} lines={2} />).lastFrame();
    fits(frame, width);
    const rows = lines(frame);
    expect(rows[1]).toContain(`scout · ${DESC}`);
    expect(rows[2]).toMatch(/│ 5d7c01/);
  });

  it("the sidebar's task column keeps the description whole before the age and agent columns", () => {
    const width = columns >= 120 ? Math.floor(columns * 0.32) : columns;
    const rows: SidebarRow[] = [{ id: ID, status: "ok", profile: "scout", description: DESC, prompt: "p", at: 0, current: true }];
    const frame = render(<Sidebar rows={rows} selected={0} now={120_000} width={width} height={5} focused={false} />).lastFrame();
    fits(frame, width);
    const text = stripAnsi(frame!);
    if (columns >= 120) {
      // The standing column (38 wide): the age and agent columns gave way before the task was cut.
      expect(text).toMatch(/│ ›✓ \[5d7c01\] configuration and doc… │/);
      expect(text).not.toContain("scout");
    } else {
      expect(text).toMatch(new RegExp(`scout \\[5d7c01\\] +\\S+ ${DESC}`));
    }
  });

  it("the status bar drops the provider and token counts before it cuts the cost", () => {
    const frame = render(
      <StatusBar
        width={columns}
        model={MODEL}
        provider="anthropic"
        contextTokens={20_000}
        contextWindow={200_000}
        usage={{ ...emptyUsage(), input: 160_000, output: 4000 }}
        cost={{ usd: 0.42, known: true, partial: false } as never}
        runningChildren={3}
        running
        now={0}
      />,
    ).lastFrame();
    fits(frame, columns);
    const [facts] = lines(frame);
    expect(facts).toContain(MODEL);
    expect(facts).toContain("3 agents running");
    expect(facts).not.toMatch(/\$0\.…|anthrop…/);
    if (columns <= 80) expect(facts).not.toContain("anthropic");
    if (columns >= 120) expect(facts).toContain("$0.42");
  });
});

it("the sidebar's agent heading is never cut to read like the age column: at any width it says agent, or the column is gone", () => {
  const rows: SidebarRow[] = [{ id: ID, status: "ok", profile: "general", description: "tests of login", prompt: "p", at: 0, current: true }];
  let cut = 0;
  for (let width = 24; width <= 60; width++) {
    const text = stripAnsi(render(<Sidebar rows={rows} selected={0} now={120_000} width={width} height={5} focused={false} />).lastFrame()!);
    const heading = text.split("\n").find((l) => /\bid\b/.test(l) && l.includes("task"))!;
    expect(heading, `width ${width}`).not.toMatch(/age…/);
    if (/gen…|gene…/.test(text)) cut++;
    if (/\bgen\S*…? \[5d7c01\]/.test(text)) expect(heading, `width ${width}`).toMatch(/\bagent\b/);
  }
  expect(cut).toBeGreaterThan(0); // some width cuts the agent column rather than dropping it
});
