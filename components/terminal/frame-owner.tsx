/**
 * Full-screen frames owned by this project's code: Ink keeps React, the layout and the input, but
 * the frame that reaches the terminal is drawn here, from Ink's laid-out tree (tree-rows.ts), as
 * rows of cells handed straight to the cell diff (tree-frames.ts). Nothing Ink writes is parsed.
 *
 * - After each React commit Ink would draw its Output and hand it to log-update; through the seam
 *   (`takeOverCommits`) our draw runs instead, throttled like Ink's (leading and trailing, `maxFps`).
 *   The probe element rendered beside the app gives us Ink's root node.
 * - Ink is given `inkStdout`: the terminal's size, TTY flag and resize events, but every write of
 *   Ink's is dropped. Ink still writes on its own paths (its redraw on a resize, a console line it
 *   patched, its last frame at unmount): any such write that is more than mode switches means the
 *   screen may have changed beside us, so the next frame is drawn whole. Ink never sees a fake
 *   terminal height: nothing it writes can clear the terminal.
 * - Bytes the app writes beside the frame (a bell, a notification, the wipe after a resize) go
 *   through `write` (TerminalWriteContext, terminal-write.ts): written, then the frame drawn whole.
 * - Each frame is one write, wrapped in synchronized-output markers; the first hides the cursor.
 */
import { Box, type DOMElement } from "ink";
import type { ReactElement } from "react";
import { rootOf, takeOverCommits } from "./ink-seam.js";
import { TreeFrameWriter } from "./tree-frames.js";
import { treeRows } from "./tree-rows.js";

const BSU = "\u001b[?2026h";
const ESU = "\u001b[?2026l";
const HIDE_CURSOR = "\u001b[?25l";
/** Ink's writes that are only mode switches (synchronized output, cursor show/hide): they change nothing on screen. */
const MODES_ONLY = /^(?:\u001b\[\?\d+[hl])*$/;

export interface FrameOwnerOptions {
  /** Let the terminal scroll a band of rows that moved up (scrollRegionSupport). */
  scroll: boolean;
  /** Every frame drawn whole (INK_FRAME_DIFF=off). */
  whole?: boolean;
  /** Frames a second at most (Ink's maxFps). */
  maxFps?: number;
  /** Each drawn frame's time, ms (INK_BENCH_FRAMES). */
  onFrame?: (metrics: { renderTime: number }) => void;
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
export function ownFullscreenFrames(stdout: NodeJS.WriteStream, { scroll, whole = false, maxFps = 30, onFrame }: FrameOwnerOptions): FrameOwner {
  let cursorHidden = false;
  const writer = new TreeFrameWriter((bytes) => {
    stdout.write(`${BSU}${cursorHidden ? "" : HIDE_CURSOR}${bytes}${ESU}`);
    cursorHidden = true;
  }, scroll);
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
    last = performance.now();
    if (whole) writer.invalidate();
    writer.draw(treeRows(root), stdout.columns || 80, stdout.rows || 24);
    onFrame?.({ renderTime: performance.now() - last });
  };
  /** A frame soon: now if the last was at least a frame's interval ago, else once it is (later requests join it). */
  const request = () => {
    if (stopped || timer) return;
    const wait = last + interval - performance.now();
    if (wait <= 0) draw();
    else timer = setTimeout(draw, wait);
  };
  /** The screen changed beside the frame: the next is drawn whole, after what changed it has run. */
  const dirty = () => {
    writer.invalidate();
    if (!stopped && !timer) timer = setTimeout(draw, 0);
  };

  const stop = () => {
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
    giveBack = takeOverCommits(root, { throttled: request, immediate: draw });
    draw(); // the layout of this commit is computed: the first frame of ours
  };

  // Registered before Ink subscribes (the owner is made before Ink's render): runs before Ink's
  // own resize handler lays the tree out again, so the frame is drawn on the next turn.
  stdout.on("resize", dirty);

  const inkStdout = new Proxy(stdout, {
    get(target, prop) {
      if (prop === "write") {
        return (chunk: unknown, ...rest: unknown[]) => {
          if (typeof chunk !== "string" || !MODES_ONLY.test(chunk)) dirty();
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
    write: (data: string) => {
      stdout.write(data);
      dirty();
    },
    stop: () => {
      stop();
      stdout.off("resize", dirty);
    },
  };
}
