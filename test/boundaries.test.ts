import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { componentRoomOf, importCycles, importEdges, importSpecifiers, resolveImport, roomArrowsBroken, roomOf, sourceFiles } from "./helpers/import-graph.js";

const root = join(import.meta.dirname, "..");
const UI_IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)["'](ink|react|ink-text-input|ink-testing-library)(?:\/[^"']*)?["']|["'][^"']*components\/[^"']*["']/;

/** The UI imports of a file, as "file: line". cli.tsx may load the UI, but only lazily. */
export function uiImports(file: string, text: string): string[] {
  const hits: string[] = [];
  for (const line of text.split("\n")) {
    if (!UI_IMPORT.test(line)) continue;
    if (file.endsWith("cli.tsx") && /import\s*\(/.test(line)) continue;
    hits.push(`${file}: ${line.trim()}`);
  }
  return hits;
}

/**
 * The rooms lowest first, one level per entry: a room imports only rooms of a lower level (never
 * its own level's other rooms). docs/architecture.md states the same order.
 */
export const ROOM_LEVELS: readonly (readonly string[])[] = [
  ["protocol"],
  ["providers", "tools", "session", "settings"],
  ["permissions", "context", "mcp"],
  ["core"],
  ["checkpoints", "hooks"],
  ["subagents/worktrees"],
  ["subagents/profiles"],
  ["subagents/runtime"],
  ["subagents/tools"],
  ["skills", "merge"],
  ["commands"],
  ["host"],
  ["rpc", "acp"],
  ["cli", "components"],
  ["root"],
];

/** The loop and the subagents get a Provider passed in: they never import src/providers/ although it sits lower. */
const NEVER: Record<string, string[]> = {
  core: ["providers"],
  "subagents/worktrees": ["providers"],
  "subagents/profiles": ["providers"],
  "subagents/runtime": ["providers"],
  "subagents/tools": ["providers"],
};

/**
 * components/ by role, lowest first: the terminal layer (frame, diff, scroll plan, alternate screen, mouse,
 * notifications, the one bounded cache); markdown parsing; pure state (reducers, brokers, line editor,
 * transcript types, formatting); layout (rows, widths, windows); `use-*` hooks; views; the screen itself
 * (App, MainScreen, run-tui and their actions: "root"); test helpers. docs/architecture.md states the same.
 */
export const COMPONENT_LEVELS: readonly (readonly string[])[] = [["terminal"], ["markdown"], ["state"], ["layout"], ["hooks"], ["views"], ["root"], ["testing"]];

/**
 * Arrows the wrong way that are known and named, each with what removes it. Only shrinks: an arrow not
 * listed fails the suite.
 */
const KNOWN_COMPONENT_BACK_ARROWS: Record<string, string> = {};

/**
 * The UI reaches its session through useSession (a TuiSession, src/host/tui-session.ts): only
 * run-tui.tsx, which creates the session, and the test helpers may import AgentSession.
 */
const AGENT_SESSION = "src/host/agent-session.ts";
const MAY_NAME_AGENT_SESSION = (file: string) => file === "components/run-tui.tsx" || file.startsWith("components/testing/");
/** The components files (tests left out) that import AgentSession but may not, as "file imports src/host/agent-session.ts". */
export function agentSessionImports(edges: readonly { from: string; to: string }[]): string[] {
  return edges.filter((e) => e.from.startsWith("components/") && e.to === AGENT_SESSION && !MAY_NAME_AGENT_SESSION(e.from)).map((e) => `${e.from} imports ${e.to}`);
}

/** Imports of ink or react that stay at run time (`import type` and `export type` are erased), as "file: statement"; a statement may span lines. */
const RUNTIME_REACT_INK = /(?:^|;|\n)\s*((?:import|export)\s+(?!type\b)[^;]*?from\s+["'](?:ink|react)(?:\/[^"']*)?["']|import\s+["'](?:ink|react)(?:\/[^"']*)?["']|.*(?:import|require)\s*\(\s*["'](?:ink|react)(?:\/[^"']*)?["'])/g;
export function runtimeReactInkImports(file: string, text: string): string[] {
  return [...text.matchAll(RUNTIME_REACT_INK)].map((m) => `${file}: ${m[1]!.replace(/\s+/g, " ").trim()}`);
}

/** The one file that may reach Ink's yoga nodes: the seam (it reads their layout and gives text nodes their measure function). */
const YOGA_SEAM = "components/terminal/ink-seam.ts";
/** A Yoga setter that changes a node's layout (what BottomClamp and unconstrained.ts once called to clip a miss). */
const YOGA_LAYOUT_SETTER = /\.set(?:Max|Min)?(?:Height|Width)\(|\.set(?:Overflow|Display|PositionType|Position|Margin|Padding|Border|Flex\w*|JustifyContent|Align\w*)\(/;
/**
 * The lines of `file` that reach past Ink into Yoga, as "file: line": a layout setter anywhere, or
 * `yogaNode` outside the seam. Heights are drawn rows (issue #41 item 3): nothing is clipped after layout.
 */
export function yogaReaches(file: string, text: string): string[] {
  return text
    .split("\n")
    .filter((line) => YOGA_LAYOUT_SETTER.test(line) || (file !== YOGA_SEAM && /\byogaNode\b/.test(line)))
    .map((line) => `${file}: ${line.trim()}`);
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const read = (file: string) => readFileSync(file, "utf8");
/** The imports among the app's own files (src/ and components/, tests left out). */
const appEdges = () => importEdges(root, [...sourceFiles(join(root, "src")), ...sourceFiles(join(root, "components"))].filter((f) => !isTest(f)), read);

describe("architecture boundaries", () => {
  it("no file under src/ imports ink, react or components/ (cli.tsx may import them lazily)", () => {
    const offenders = sourceFiles(join(root, "src")).flatMap((f) => uiImports(relative(root, f), readFileSync(f, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("every room has a level: each folder under src/ (src/subagents/ by its sub-folders) is placed in ROOM_LEVELS", () => {
    const placed = new Set(ROOM_LEVELS.flat());
    const rooms = new Set(sourceFiles(join(root, "src")).map((f) => roomOf(relative(root, f))!));
    expect([...rooms].filter((room) => !placed.has(room)).sort()).toEqual([]);
  });

  it("rooms point one way: every import between rooms goes to a lower level (protocol lowest, the src/ root highest); core and subagents never import providers", () => {
    expect(roomArrowsBroken(appEdges(), ROOM_LEVELS, NEVER)).toEqual([]);
  });

  it("components/ rooms point one way (terminal lowest, then markdown, state, layout, hooks, views, the screen, test helpers)", () => {
    const broken = roomArrowsBroken(appEdges(), COMPONENT_LEVELS, {}, componentRoomOf).filter((line) => !line.startsWith("src/"));
    const known = new Set(Object.keys(KNOWN_COMPONENT_BACK_ARROWS));
    expect(broken.filter((line) => !known.has(line.split(":")[0]!))).toEqual([]);
    // A known arrow that is gone leaves the list (it only shrinks).
    expect([...known].filter((arrow) => !broken.some((line) => line.startsWith(`${arrow}:`)))).toEqual([]);
  });

  it("the adapters (src/rpc/, src/acp/, src/cli/print-mode.ts) hold a SessionClient: none imports src/host/agent-session.ts", () => {
    const adapter = (f: string) => f.startsWith("src/rpc/") || f.startsWith("src/acp/") || f === "src/cli/print-mode.ts";
    const edges = appEdges();
    expect(edges.filter((e) => adapter(e.from) && e.to === "src/host/agent-session.ts")).toEqual([]);
    expect(edges.filter((e) => adapter(e.from) && e.to === "src/host/session-client.ts").length).toBeGreaterThan(0);
  });

  it("under components/ only run-tui.tsx (and the test helpers) import AgentSession: the UI holds a TuiSession", () => {
    expect(agentSessionImports(appEdges())).toEqual([]);
    // The rule itself catches a view that reaches for the session class.
    expect(agentSessionImports([{ from: "components/views/X.tsx", to: AGENT_SESSION }, { from: "components/run-tui.tsx", to: AGENT_SESSION }, { from: "components/testing/h.tsx", to: AGENT_SESSION }])).toEqual(["components/views/X.tsx imports src/host/agent-session.ts"]);
  });

  it("nothing under components/ reaches into Yoga: no layout setter anywhere, yogaNode only in the seam (ink-seam.ts)", () => {
    const files = sourceFiles(join(root, "components")).filter((f) => !isTest(f));
    expect(files.flatMap((f) => yogaReaches(relative(root, f), read(f)))).toEqual([]);
    // The rule itself catches a clamp's reach-in and leaves the seam's reads alone.
    expect(yogaReaches("components/layout/X.tsx", "box.current?.yogaNode?.setMaxHeight(cap);\nnode?.yogaNode?.setOverflow(2);")).toHaveLength(2);
    expect(yogaReaches("components/views/Y.tsx", "const y = node.yogaNode;")).toHaveLength(1);
    expect(yogaReaches(YOGA_SEAM, "const y = node.yogaNode;\nc.yogaNode?.setMeasureFunc(f);")).toEqual([]);
  });

  it("no import cycles among the files of src/ and components/", () => {
    expect(importCycles(appEdges())).toEqual([]);
  });

  it("the graph walk resolves a specifier from a sub-folder to the real file and its room", () => {
    const from = join(root, "src/subagents/runtime/child-job.ts");
    expect(relative(root, resolveImport(from, "../../core/loop.js")!)).toBe("src/core/loop.ts");
    expect(relative(root, resolveImport(join(root, "components/App.tsx"), "./MainScreen.js")!)).toBe("components/MainScreen.tsx");
    expect(resolveImport(from, "zod")).toBeUndefined();
    expect(importSpecifiers('import type { Tool } from "../protocol/tool.js";\nexport { x } from "./walk.js";\nconst m = await import("../../mcp/client.js");\nimport "./side.js";')).toEqual(["../protocol/tool.js", "./walk.js", "../../mcp/client.js", "./side.js"]);
    expect(["src/cli.tsx", "src/host/main-run.ts", "src/subagents/tools/task-tool.ts", "components/hooks/x.ts", "test/x.test.ts"].map(roomOf)).toEqual(["root", "host", "subagents/tools", "components", undefined]);
  });

  it("the rules themselves catch a back-arrow, a same-level arrow, a forbidden arrow, an unplaced room and a cycle", () => {
    const levels = [["protocol"], ["session", "tools"], ["core", "providers"], ["host"]];
    const broken = roomArrowsBroken(
      [
        { from: "src/host/a.ts", to: "src/session/b.ts" },
        { from: "src/session/b.ts", to: "src/host/a.ts" },
        { from: "src/session/b.ts", to: "src/tools/c.ts" },
        { from: "src/core/d.ts", to: "src/providers/e.ts" },
        { from: "src/core/d.ts", to: "src/newroom/f.ts" },
        { from: "src/core/d.ts", to: "src/core/g.ts" },
      ],
      levels,
      { host: ["providers"] },
    );
    expect(broken).toEqual([
      "src/session/b.ts imports src/host/a.ts: session may not import host (a higher level)",
      "src/session/b.ts imports src/tools/c.ts: session may not import tools (same level)",
      "src/core/d.ts imports src/providers/e.ts: core may not import providers (same level)",
      "src/core/d.ts imports src/newroom/f.ts: room newroom has no level in the boundary test",
    ]);
    expect(roomArrowsBroken([{ from: "src/host/a.ts", to: "src/providers/e.ts" }], levels, { host: ["providers"] })).toEqual(["src/host/a.ts imports src/providers/e.ts: host never imports providers"]);
    const cycles = importCycles([
      { from: "components/App.tsx", to: "components/MainScreen.tsx" },
      { from: "components/MainScreen.tsx", to: "components/app-props.ts" },
      { from: "components/app-props.ts", to: "components/App.tsx" },
      { from: "components/App.tsx", to: "src/x.ts" },
    ]);
    expect(cycles).toEqual([["components/App.tsx", "components/MainScreen.tsx", "components/app-props.ts"]]);
    expect(importCycles([{ from: "a.ts", to: "b.ts" }, { from: "b.ts", to: "c.ts" }])).toEqual([]);
  });

  it("components/state/ is pure: none of its files imports ink or react at run time (type-only imports are erased)", () => {
    const offenders = sourceFiles(join(root, "components/state"))
      .filter((f) => !isTest(f))
      .flatMap((f) => runtimeReactInkImports(relative(root, f), read(f)));
    expect(offenders).toEqual([]);
    // The check itself: a value import is caught, a type-only one is not.
    expect(runtimeReactInkImports("components/state/x.ts", 'import { useState } from "react";\nimport { Box } from "ink";\nimport "ink/build/x.js";\nconst r = await import("react");\nimport {\n  useRef,\n} from "react";')).toHaveLength(5);
    expect(runtimeReactInkImports("components/state/x.ts", 'import type { Key } from "ink";\nexport type { Dispatch } from "react";\nimport { reduceUi } from "./ui-reducer.js";')).toEqual([]);
  });

  it("the check itself catches UI imports", () => {
    expect(uiImports("src/x.ts", 'import { Box } from "ink";')).toHaveLength(1);
    expect(uiImports("src/x.ts", "import React from 'react';")).toHaveLength(1);
    expect(uiImports("src/x.ts", 'import { App } from "../components/App.js";')).toHaveLength(1);
    expect(uiImports("src/x.ts", 'import { z } from "zod";')).toHaveLength(0);
  });
});
