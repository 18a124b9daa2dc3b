/**
 * The frame diff's model of the screen never drifts from the terminal: seeded random sequences of
 * frames (short, tall, full-height; wide characters, emoji, colours; a transcript that moves up
 * under a fixed sidebar), resizes (alone and with a frame in the same tick), and writes beside the
 * frame (a notification's BEL, the resize wipe, console lines, through the frame owner's write) go
 * through Ink's layout and our frame owner (frame-owner.tsx) into a screen emulator; after each
 * step the screen must equal a fresh render of the last frame. A failure names its seed and step,
 * so it can be replayed.
 */
import { Box, render, Text, useStdout } from "ink";
import { createElement as h, useEffect, useState, useSyncExternalStore } from "react";
import stringWidth from "string-width";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { useResizeWipe } from "../hooks/use-resize-wipe.js";
import { cutToCells } from "../layout/measure.js";
import { random } from "../testing/random.js";
import { ScreenEmulator } from "../testing/screen-emulator.js";
import { ownFullscreenFrames, ownInlineFrames } from "./frame-owner.js";
import { TerminalWriteContext, useTerminalWrite } from "./terminal-write.js";

/** How a run draws: the screen mode, the terminal's scroll, and every frame whole (INK_FRAME_DIFF=off). */
interface OwnerOptions {
  mode: "fullscreen" | "inline";
  scroll: boolean;
  whole?: boolean;
}

/** A line of styled segments. */
type Seg = { text: string; color?: string; bold?: boolean; inverse?: boolean };
type Line = Seg[];

const WORDS = ["login", "session", "src/auth/login.ts", "the", "verifies", "request", "→", "✓", "…", "漢字", "🚀", "é", "·", "│", "⠋", "tests", "42", "ok", "répertoire", "😀"];
const COLORS = ["cyan", "green", "red", "yellow", "gray", undefined, undefined, undefined];

/** The state a frame is drawn from (what the app's store would hold). */
interface FrameSpec {
  /** Index of the first transcript line shown. */
  offset: number;
  /** Rows the frame has, given the terminal's height: "short" a few, "tall" one less than the height, "full" as many. */
  height: "short" | "tall" | "full";
  sidebar: boolean;
  prompt: string;
  glyph: string;
}

/** `text` cut to at most `width` columns. */
const cut = cutToCells;

/** Segments cut to `width` columns, then padded with spaces to exactly `pad` columns when given. */
function fit(line: Line, width: number, pad?: number): Line {
  const out: Line = [];
  let w = 0;
  for (const seg of line) {
    const text = cut(seg.text, width - w);
    if (text) out.push({ ...seg, text });
    w += stringWidth(text);
    if (text !== seg.text) break;
  }
  if (pad !== undefined && w < pad) out.push({ text: " ".repeat(pad - w) });
  return out;
}

/** The frame's lines at `columns`×`rows` (each at most `columns` wide), like the app lays out its screen. */
function layout(doc: Line[], spec: FrameSpec, columns: number, rows: number): Line[] {
  const height = spec.height === "full" ? rows : spec.height === "tall" ? rows - 1 : Math.min(rows - 1, 6);
  const side = spec.sidebar && columns >= 40 ? 16 : 0;
  const bodyRows = Math.max(0, height - 5);
  const lines: Line[] = [[{ text: cut(`Ink · demo · ${columns}×${rows}`, columns), bold: true }]];
  for (let i = 0; i < bodyRows; i++) {
    const body = doc[(spec.offset + i) % doc.length]!;
    lines.push(side ? [...fit(body, columns - side, columns - side), { text: cut(`│ child ${i % 3} ${"⠋⠙⠹"[i % 3]}`, side), color: "gray" }] : fit(body, columns));
  }
  const inner = Math.max(0, columns - 2);
  lines.push([{ text: `╭${"─".repeat(inner)}╮`, color: "gray" }]);
  lines.push([{ text: "│", color: "gray" }, ...fit([{ text: "› " }, { text: spec.prompt }], inner, inner), { text: "│", color: "gray" }]);
  lines.push([{ text: `╰${"─".repeat(inner)}╯`, color: "gray" }]);
  lines.push(fit([{ text: spec.glyph, color: "cyan" }, { text: " working… Esc stops · $0.01" }], columns));
  return lines.slice(0, height);
}

/** A random transcript line. */
function docLine(rnd: () => number): Line {
  const line: Line = [];
  const n = Math.floor(rnd() * 14);
  for (let i = 0; i < n; i++) {
    const text = `${i ? " " : ""}${WORDS[Math.floor(rnd() * WORDS.length)]}`;
    const r = rnd();
    line.push({ text, color: COLORS[Math.floor(rnd() * COLORS.length)], bold: r < 0.1, inverse: r > 0.95 });
  }
  return line;
}

/**
 * The screen a fresh terminal shows once `lines` are written from its top-left corner as Ink writes
 * a frame, a line feed after each — but the last when `scrolls` is false and the frame is as tall
 * as the screen (full-screen, such a frame is shown whole rather than scrolled by its line feed).
 */
function freshScreen(lines: Line[], columns: number, rows: number, scrolls: boolean): string[] {
  const term = new ScreenEmulator(columns, rows);
  term.write(lines.map((l) => l.map((s) => s.text).join("")).join("\n") + (scrolls || lines.length < rows ? "\n" : ""));
  return term.lines();
}

/** The store the harness app draws from, and the writer Ink gives it. */
class Store {
  spec: FrameSpec;
  write: (data: string) => void = () => {};
  private listeners = new Set<() => void>();
  constructor(spec: FrameSpec) {
    this.spec = spec;
  }
  set(spec: FrameSpec): void {
    this.spec = spec;
    for (const l of this.listeners) l();
  }
  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
  get = () => this.spec;
}

/** The app: the frame laid out for the size it last heard of (as the real app's useTerminalSize). */
function Harness({ store, doc, wipe }: { store: Store; doc: Line[]; wipe: boolean }) {
  const { stdout } = useStdout();
  const write = useTerminalWrite();
  store.write = write;
  const [size, setSize] = useState({ columns: stdout.columns, rows: stdout.rows });
  useEffect(() => {
    const onResize = () => setSize({ columns: stdout.columns, rows: stdout.rows });
    stdout.on("resize", onResize);
    return () => void stdout.off("resize", onResize);
  }, [stdout]);
  // The app's own heal after a resize (a wipe and a whole frame once the size settled), when asked for.
  useResizeWipe(wipe ? "fullscreen" : "inline", size.columns, size.rows, write);
  const spec = useSyncExternalStore(store.subscribe, store.get);
  const lines = layout(doc, spec, size.columns, size.rows);
  return h(
    Box,
    { flexDirection: "column", width: size.columns },
    // An empty Text takes no row in Ink: an empty line is a space (trimmed from the row Ink writes).
    ...lines.map((line, i) => h(Text, { key: i, wrap: "truncate" }, ...(line.length ? line : [{ text: " " }]).map((s, j) => h(Text, { key: j, color: s.color, bold: s.bold, inverse: s.inverse }, s.text)))),
  );
}

/** A TTY stand-in whose bytes go to `term` (and are kept in `log`). */
function ttyInto(term: ScreenEmulator) {
  const tty = Object.assign(new PassThrough(), { rows: term.rows, columns: term.columns, isTTY: true }) as unknown as NodeJS.WriteStream & { rows: number; columns: number };
  const log: string[] = [];
  tty.write = ((chunk: string | Uint8Array) => {
    const s = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    log.push(s);
    term.write(s);
    return true;
  }) as NodeJS.WriteStream["write"];
  return { tty, log };
}

const SIZES = [
  [80, 24],
  [120, 40],
  [60, 12],
  [100, 30],
  [41, 10],
] as const;

/**
 * Waits until `ok()` holds, polling; gives up after `ms` (the caller then asserts and shows the
 * difference). A right screen arrives within a frame or two: the limit costs time only on a failure.
 */
async function until(ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 3));
}

/** Runs `steps` random steps from `seed` through Ink and a frame owner made with `options` (inline: no resizes, no wipes); returns the first divergence, if any. */
async function drift(seed: number, steps: number, options: OwnerOptions, { wipe = false, inkWrites = false } = {}): Promise<string | undefined> {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const doc = Array.from({ length: 300 }, () => docLine(rnd));
  let [columns, rows]: [number, number] = [...pick(SIZES)];
  const term = new ScreenEmulator(columns, rows);
  const { tty, log } = ttyInto(term);
  const { tty: errTty } = ttyInto(term); // stderr: the same terminal
  const store = new Store({ offset: 0, height: "tall", sidebar: false, prompt: "", glyph: "⠋" });
  const own = options.mode === "inline" ? ownInlineFrames : ownFullscreenFrames;
  const owner = own(tty, { scroll: options.scroll, whole: options.whole, maxFps: 200 });
  const app = render(h(TerminalWriteContext.Provider, { value: owner.write }, h(Harness, { store, doc, wipe }), owner.probe), { stdout: owner.inkStdout, stderr: errTty, patchConsole: false, exitOnCtrlC: false, maxFps: 200 });
  const history: string[] = [];
  const inline = options.mode === "inline";
  /**
   * Full-screen: a fresh terminal with the frame written from its top-left corner. Inline: the
   * screen as it is above the frame, the frame's rows ending just above the cursor, blank below.
   */
  let cached: { key: unknown[]; frame: Line[]; fresh: string[] } | undefined;
  const expected = () => {
    const key = [store.spec, columns, rows];
    if (!cached || cached.key.some((k, i) => k !== key[i])) {
      const frame = layout(doc, store.spec, columns, rows);
      cached = { key, frame, fresh: freshScreen(frame, columns, rows, inkWrites) };
    }
    const { frame, fresh } = cached;
    if (!inline) return fresh;
    const screen = term.lines();
    const top = term.row - frame.length;
    if (top < 0 || term.col !== 0) return ["(the cursor is not at the start of a row below the frame)"];
    for (let i = 0; i < frame.length; i++) screen[top + i] = fresh[i]!;
    for (let r = term.row; r < rows; r++) screen[r] = "";
    return screen;
  };
  const resize = () => {
    [columns, rows] = rnd() < 0.3 ? [columns + Math.floor(rnd() * 7) - 3, rows + Math.floor(rnd() * 5) - 2] : pick(SIZES);
    columns = Math.max(20, columns);
    rows = Math.max(8, rows);
    term.resize(columns, rows); // the terminal changes size first; the process hears of it after
    tty.columns = columns;
    tty.rows = rows;
    tty.emit("resize");
  };
  const nextSpec = (): FrameSpec => {
    const s = store.spec;
    const r = rnd();
    return {
      offset: r < 0.5 ? s.offset + 1 + Math.floor(rnd() * 3) : r < 0.6 ? s.offset + Math.floor(rnd() * 40) : s.offset,
      height: rnd() < 0.08 && !inline && !inkWrites ? "full" : rnd() < 0.2 ? "short" : "tall",
      sidebar: rnd() < 0.1 ? !s.sidebar : s.sidebar,
      prompt: rnd() < 0.3 ? s.prompt + pick(WORDS) : rnd() < 0.05 ? "" : s.prompt,
      glyph: pick(["⠋", "⠙", "⠹", "⠸", "✓", "●"]),
    };
  };
  try {
    await until(() => same(term.lines(), expected()));
    for (let step = 0; step < steps; step++) {
      const r = rnd();
      let what: string;
      const from = log.length;
      if (r < 0.6 || (inline && r < 0.8)) {
        store.set(nextSpec());
        what = `frame ${JSON.stringify(store.spec)}`;
      } else if (r < 0.72) {
        resize();
        what = `resize to ${columns}×${rows}`;
      } else if (r < 0.8) {
        resize();
        store.set(nextSpec());
        what = `resize to ${columns}×${rows} and a frame in the same tick ${JSON.stringify(store.spec)}`;
      } else if (r < 0.88) {
        store.write("\u0007");
        what = "a notification's BEL through the owner's write";
      } else if (r < 0.91 && !inline) {
        store.write("\u001b[2J\u001b[H");
        what = "the resize wipe through the owner's write";
      } else if (r < 0.94 && !inkWrites) {
        store.write(`a console line ${step}\nand its second line\n`);
        what = "two console lines through the owner's write (as a patched console.log)";
      } else if (r < 0.97 && !inkWrites) {
        store.write(`(node:1) MaxListenersExceededWarning: Possible EventTarget memory leak detected. 11 abort listeners added to [AbortSignal]. Use events.setMaxListeners() to increase limit (${step})\n(Use \`node --trace-warnings ...\` to show where the warning was created)\n`);
        what = "a Node warning through the owner's write (Node writes warnings with console.error, which is patched)";
      } else {
        tty.write("\u001b[?2004h"); // a mode switch written beside the frames (bracketed paste)
        what = "a mode switch beside the frames";
      }
      history.push(what);
      await until(() => same(term.lines(), expected()));
      if (!same(term.lines(), expected())) {
        return [
          `seed ${seed}, step ${step}: ${what}`,
          `steps before: ${history.slice(-6, -1).join(" | ")}`,
          `screen:\n${term.lines().join("\n")}`,
          `expected:\n${expected().join("\n")}`,
          `bytes of the step: ${JSON.stringify(log.slice(from).join(""))}`,
        ].join("\n");
      }
    }
    return undefined;
  } finally {
    app.unmount();
    app.cleanup();
    owner.stop();
  }
}

/** Whether two screens hold the same text. */
const same = (a: string[], b: string[]) => a.length === b.length && a.every((l, i) => l === b[i]);

/** Ink writes no frames when it thinks it runs in CI (its is-in-ci check). */
const isInCi = ["CI", "CONTINUOUS_INTEGRATION"].some((k) => k in process.env && process.env[k] !== "0" && process.env[k] !== "false");

/** The modes tried: the owner's options, and how the run is set up (see drift). */
const MODES: [string, OwnerOptions, { wipe?: boolean; inkWrites?: boolean }][] = [
  ["full-screen, scroll region: right after every step, without the app's resize wipe", { mode: "fullscreen", scroll: true }, {}],
  ["full-screen, no scroll region (INK_SCROLL_REGION=off): right after every step, without the app's resize wipe", { mode: "fullscreen", scroll: false }, {}],
  ["inline (no resizes: the emulator does not reflow), lines deleted and inserted", { mode: "inline", scroll: true }, {}],
  ["inline (no resizes), every frame whole (INK_FRAME_DIFF=off)", { mode: "inline", scroll: false, whole: true }, { inkWrites: true }],
  ["full-screen, every frame whole (INK_FRAME_DIFF=off), with the app's resize wipe", { mode: "fullscreen", scroll: false, whole: true }, { wipe: true, inkWrites: true }],
];

describe.skipIf(isInCi)("the frame diff's model never drifts from the screen (seeded random frames, resizes, pass-through writes)", () => {
  for (const [name, options, setup] of MODES) {
    for (const seed of [1, 2, 3]) {
      it(`${name} (seed ${seed}, 40 steps)`, async () => {
        expect(await drift(seed, 40, options, setup)).toBeUndefined();
      });
    }
  }
});
