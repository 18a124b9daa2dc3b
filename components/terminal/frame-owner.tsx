/**
 * Frames owned by this project's code, in both screen modes: Ink keeps React, the layout and the
 * input, but the frame that reaches the terminal is drawn here, from Ink's laid-out tree
 * (tree-rows.ts), as rows of cells handed straight to the cell diff (tree-frames.ts). Nothing Ink
 * writes is parsed, and Ink is told the terminal's real size.
 *
 * Full-screen (`ownFullscreenFrames`), the frame is drawn from the alternate screen's top-left
 * corner. Inline (`ownInlineFrames`), the live frame sits at the foot of the normal screen, and
 * <Static>'s new items (finished transcript items) are written once above it, into the scrollback,
 * drawn by our code from Ink's static node; on a narrower terminal the rows the rewrapped frame
 * covers are erased before Ink lays out again, and nothing above the frame is ever touched.
 *
 * - After each React commit Ink would draw its Output and hand it to log-update; through the seam
 *   (`takeOverCommits`) our draw runs instead, throttled like Ink's (leading and trailing, `maxFps`).
 *   The probe element rendered beside the app gives us Ink's root node.
 * - Ink is given `inkStdout`: the terminal's size, TTY flag and resize events, but every write of
 *   Ink's is dropped. Ink still writes on its own paths (its redraw on a resize, a console line it
 *   patched, its last frame at unmount): full-screen, any such write that is more than mode
 *   switches makes the next frame whole; inline, our frame is drawn at once (the tree was just laid
 *   out: at unmount, that is the last frame). Ink never sees a fake terminal height: nothing it
 *   writes can clear the terminal.
 * - Bytes the app writes beside the frame (a bell, a notification, the wipe after a resize, inline
 *   a console line) go through `write` (TerminalWriteContext, terminal-write.ts): full-screen,
 *   written, then the frame drawn whole, unless they were bells and OSC sequences alone (a
 *   notification: no cell changed); inline, escape sequences alone are written as they are,
 *   text above the frame, the frame again below it.
 * - Each frame is one write, wrapped in synchronized-output markers; the first hides the cursor,
 *   and each leaves it (hidden) on the prompt's caret when one is drawn (caret.ts). Inline, the
 *   cursor is shown again, below the frame, when drawing stops.
 */
import { Box, type DOMElement } from "ink";
import type { ReactElement } from "react";
import type { CaretAt } from "./caret.js";
import { FrameClock, type FramePhases } from "./frame-phases.js";
import { rootOf, staticNodeOf, takeOverCommits } from "./ink-seam.js";
import { InlineFrameWriter, TreeFrameWriter } from "./tree-frames.js";
import { treeRows } from "./tree-rows.js";

const BSU = "\u001b[?2026h";
const ESU = "\u001b[?2026l";
const HIDE_CURSOR = "\u001b[?25l";
const SHOW_CURSOR = "\u001b[?25h";
/**
 * A patch this short (a spinner's glyph or a figure, the move to it and the caret's park) is written
 * without the synchronized-output pair: it changes a cell or two, which cannot tear, and the pair
 * (16 bytes) would double it — with 8 children streaming, spinner-only frames were a quarter of the
 * bytes written full-screen.
 */
export const UNSYNCED_PATCH_BYTES = 32;

/** `bytes` of one frame as written: in a synchronized-output block (the cursor hidden first) unless it is a short patch. */
function framed(bytes: string, cursorHidden: boolean): string {
  if (cursorHidden && bytes.length <= UNSYNCED_PATCH_BYTES) return bytes;
  return `${BSU}${cursorHidden ? "" : HIDE_CURSOR}${bytes}${ESU}`;
}

/** Frames' bytes to `stdout`, each `framed`, the cursor hidden with the first; `showCursor` gives it back. */
function frameStream(stdout: NodeJS.WriteStream): { write: (bytes: string) => void; showCursor: () => void } {
  let cursorHidden = false;
  return {
    write: (bytes) => {
      stdout.write(framed(bytes, cursorHidden));
      cursorHidden = true;
    },
    showCursor: () => {
      if (cursorHidden) stdout.write(SHOW_CURSOR);
      cursorHidden = false;
    },
  };
}

/** Ink's writes that are only mode switches (synchronized output, cursor show/hide): they change nothing on screen. */
const MODES_ONLY = /^(?:\u001b\[\?\d+[hl])*$/;
/** Bells and OSC sequences alone (a notification): they change no cell on screen. */
const NOTICE_ONLY = /^(?:\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u0007)+$/;

export interface FrameOwnerOptions {
  /** Let the terminal scroll a band of rows that moved up (scrollRegionSupport). */
  scroll: boolean;
  /** Every frame drawn whole (INK_FRAME_DIFF=off). */
  whole?: boolean;
  /** Frames a second at most (Ink's maxFps). */
  maxFps?: number;
  /** Each drawn frame's time and where it went (INK_BENCH_FRAMES). */
  onFrame?: (metrics: FrameMetrics) => void;
  /** (Benchmarks) The main thread's time waiting for a CPU so far, ms (frame-phases.ts `runQueueWaitReader`): read before and after each frame. */
  waitedMs?: () => number;
}

/** One drawn frame: when it started (`performance.now()`), its time (ms), its phases (frame-phases.ts) and the time it waited for a CPU (with `waitedMs`). */
export interface FrameMetrics {
  renderTime: number;
  start: number;
  phases: FramePhases;
  waited?: number;
}

export interface FrameOwner {
  /** The stream to give Ink (see the module note). */
  inkStdout: NodeJS.WriteStream;
  /** Rendered beside the app (absolute, no size): hands the owner Ink's root node. */
  probe: ReactElement;
  /** Writes `data` beside the frame, then draws the frame whole again. */
  write: (data: string) => void;
  /** Stops drawing (the app is leaving) and gives Ink its own render back. */
  stop: () => void;
}

/** Owns the full-screen frames on `stdout`. */
export function ownFullscreenFrames(stdout: NodeJS.WriteStream, { scroll, whole = false, maxFps = 30, onFrame, waitedMs }: FrameOwnerOptions): FrameOwner {
  const frames = frameStream(stdout);
  const clock = new FrameClock();
  const writer = new TreeFrameWriter(frames.write, scroll, clock);
  return own(stdout, maxFps, clock, {
    draw: (root) => {
      if (whole) writer.invalidate();
      let caret: CaretAt | undefined;
      const rows = treeRows(root, { caret: (at) => (caret = at) });
      clock.mark("rows");
      writer.draw(rows, stdout.columns || 80, stdout.rows || 24, caret);
    },
    onFrame,
    waitedMs,
    // Ink's own writes never reach the screen, but one that is more than mode switches means Ink
    // thinks the screen changed (a resize, a console line): the next frame is drawn whole.
    inkWrote: (drawSoon) => {
      writer.invalidate();
      drawSoon();
    },
    resized: (drawSoon) => {
      writer.invalidate();
      drawSoon();
    },
    beside: (data, drawSoon) => {
      stdout.write(data);
      // A bell or a notification's escape sequence leaves the screen as it was: no frame drawn whole
      // (at the end of a run with 8 children, the bell cost a whole frame, ~7 KB).
      if (NOTICE_ONLY.test(data)) return;
      writer.invalidate();
      drawSoon();
    },
    stopped: () => {},
  });
}

/** Owns the inline frames on `stdout` (the normal screen: see the module note). */
export function ownInlineFrames(stdout: NodeJS.WriteStream, { scroll, whole = false, maxFps = 30, onFrame, waitedMs }: FrameOwnerOptions): FrameOwner {
  const frames = frameStream(stdout);
  const clock = new FrameClock();
  const writer = new InlineFrameWriter(frames.write, scroll, clock);
  let columns = stdout.columns || 80;
  return own(stdout, maxFps, clock, {
    draw: (root) => {
      if (whole) writer.invalidate();
      const staticNode = staticNodeOf(root);
      // <Static> holds children only in the commit that added them (it drops them right after).
      const above = staticNode && staticNode.childNodes.length > 0 ? treeRows(staticNode, { skipStatic: false }) : [];
      let caret: CaretAt | undefined;
      const rows = treeRows(root, { caret: (at) => (caret = at) });
      clock.mark("rows");
      writer.draw(rows, stdout.columns || 80, stdout.rows || 24, above, caret);
    },
    onFrame,
    waitedMs,
    // Ink writes its own frame (into nothing) on a resize, on a console line and at unmount, each
    // time with the tree laid out afresh: ours is drawn at once (at unmount, the last one).
    inkWrote: (_drawSoon, drawNow) => drawNow(),
    resized: (drawSoon) => {
      const now = stdout.columns || 80;
      if (now < columns) writer.narrowed(now);
      else writer.invalidate();
      columns = now;
      drawSoon();
    },
    beside: (data, _drawSoon, drawNow) => {
      if (writer.beside(data)) drawNow();
    },
    stopped: () => {
      writer.release();
      frames.showCursor();
    },
  });
}

interface Mode {
  /** Draws the frame of the laid-out tree under `root`. */
  draw: (root: DOMElement) => void;
  onFrame?: (metrics: FrameMetrics) => void;
  waitedMs?: () => number;
  /** Ink wrote something besides mode switches (dropped). */
  inkWrote: (drawSoon: () => void, drawNow: () => void) => void;
  /** The terminal was resized (before Ink's own handler runs). */
  resized: (drawSoon: () => void) => void;
  /** The app writes `data` beside the frame. */
  beside: (data: string, drawSoon: () => void, drawNow: () => void) => void;
  /** Drawing stopped for good. */
  stopped: () => void;
}

/** What both modes share: the take-over of Ink's commits, the throttle, the frame clock's start and layout, the probe and the stream given to Ink. */
function own(stdout: NodeJS.WriteStream, maxFps: number, clock: FrameClock, mode: Mode): FrameOwner {
  let root: DOMElement | undefined;
  let giveBack: (() => void) | undefined;
  let stopped = false;
  const interval = maxFps > 0 ? Math.max(1, Math.ceil(1000 / maxFps)) : 0;
  let last = -Infinity;
  let timer: NodeJS.Timeout | undefined;

  const draw = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (stopped || !root) return;
    const waited = mode.onFrame && mode.waitedMs?.();
    last = clock.start();
    mode.draw(root);
    const renderTime = performance.now() - last;
    mode.onFrame?.({ renderTime, start: last, phases: clock.phases, waited: waited === undefined ? undefined : mode.waitedMs!() - waited });
  };
  /** A frame soon: now if the last was at least a frame's interval ago, else once it is (later requests join it). */
  const request = () => {
    if (stopped || timer) return;
    const wait = last + interval - performance.now();
    if (wait <= 0) draw();
    else timer = setTimeout(draw, wait);
  };
  /** A frame on the next turn, after what changed the screen has run (later requests join it). */
  const soon = () => {
    if (!stopped && !timer) timer = setTimeout(draw, 0);
  };

  const stop = () => {
    if (!stopped) mode.stopped();
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = undefined;
    giveBack?.();
    giveBack = undefined;
  };
  const onRoot = (node: DOMElement | null) => {
    if (!node) return stop(); // the app unmounts: Ink's last commit draws nothing of ours
    if (root || stopped) return;
    root = rootOf(node);
    giveBack = takeOverCommits(root, { throttled: request, immediate: draw, laidOut: (ms) => clock.laidOut(ms) });
    draw(); // the layout of this commit is computed: the first frame of ours
  };

  // Registered before Ink subscribes (the owner is made before Ink's render): runs before Ink's
  // own resize handler lays the tree out again, so the frame is drawn on the next turn.
  const resized = () => mode.resized(soon);
  stdout.on("resize", resized);

  const inkStdout = new Proxy(stdout, {
    get(target, prop) {
      if (prop === "write") {
        return (chunk: unknown, ...rest: unknown[]) => {
          if (typeof chunk !== "string" || !MODES_ONLY.test(chunk)) mode.inkWrote(soon, draw);
          const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
          if (done) process.nextTick(done); // Ink waits on a write's callback at unmount
          return true;
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });

  return {
    inkStdout,
    probe: <Box key="ink-frame-owner" ref={onRoot} position="absolute" width={0} height={0} />,
    write: (data: string) => mode.beside(data, soon, draw),
    stop: () => {
      stop();
      stdout.off("resize", resized);
    },
  };
}
