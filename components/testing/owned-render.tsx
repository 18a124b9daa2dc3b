/**
 * Renders an element the way the TUI does on a terminal: Ink lays it out, and our frame owner
 * (components/terminal/frame-owner.tsx) draws the frames to `stdout` — inline by default.
 */
import { render } from "ink";
import type { ReactElement } from "react";
import { ownFullscreenFrames, ownInlineFrames } from "../terminal/frame-owner.js";
import { CaretMarkContext } from "../terminal/caret.js";
import { TerminalWriteContext } from "../terminal/terminal-write.js";

export interface OwnedRender {
  rerender: (node: ReactElement) => void;
  unmount: () => void;
}

/** `node` rendered to `stdout` through a frame owner of `mode`, with the terminal's scroll when `scroll`. */
export function renderOwned(node: ReactElement, stdout: NodeJS.WriteStream, { mode = "inline", scroll = true }: { mode?: "inline" | "fullscreen"; scroll?: boolean } = {}): OwnedRender {
  const owner = (mode === "inline" ? ownInlineFrames : ownFullscreenFrames)(stdout, { scroll, maxFps: 30 });
  const wrap = (n: ReactElement) => (
    <TerminalWriteContext.Provider value={owner.write}>
      <CaretMarkContext.Provider value={true}>{n}</CaretMarkContext.Provider>
      {owner.probe}
    </TerminalWriteContext.Provider>
  );
  const app = render(wrap(node), { stdout: owner.inkStdout, patchConsole: false, exitOnCtrlC: false });
  return {
    rerender: (n) => app.rerender(wrap(n)),
    unmount: () => {
      app.unmount();
      owner.stop();
    },
  };
}
