/**
 * A terminal for frame-owner tests: a write stream that records every write and plays it into a
 * screen emulator, with the size and TTY flag Ink reads; and a stdin Ink can be given without a TTY.
 */
import { EventEmitter } from "node:events";
import { ScreenEmulator } from "./screen-emulator.js";

export class FakeTerminal extends EventEmitter {
  isTTY = true;
  writes: string[] = [];
  screen: ScreenEmulator;
  constructor(
    public columns = 40,
    public rows = 10,
  ) {
    super();
    this.screen = new ScreenEmulator(columns, rows);
  }
  write = (data: string, cb?: () => void) => {
    this.writes.push(data);
    this.screen.write(data);
    cb?.();
    return true;
  };
  /** Scrollback then screen, trailing blanks dropped. */
  all(): string[] {
    const lines = [...this.screen.scrollback, ...this.screen.lines().map((l) => l.trimEnd())];
    while (lines.length && lines.at(-1) === "") lines.pop();
    return lines;
  }
}

/** A stdin that is not a TTY and never has input. */
export const fakeStdin = () => Object.assign(new EventEmitter(), { isTTY: false, setEncoding() {}, resume() {}, pause() {}, ref() {}, unref() {}, read: () => null });
