/**
 * Mouse wheel in full-screen mode. The terminal is asked to report mouse buttons in the SGR
 * encoding (`ESC[?1000h` buttons, `ESC[?1006h` SGR): a wheel notch then arrives as the input
 * `ESC[<64;x;yM` (up) or `ESC[<65;x;yM` (down), modifier bits added to the button number. The line
 * editor ignores these sequences, so they never reach the prompt as text. With reporting on, most
 * terminals still select text with Shift held while dragging.
 */

/** Asks the terminal to report mouse buttons and the wheel, SGR-encoded. */
export const MOUSE_ON = "\u001b[?1000h\u001b[?1006h";
/** Stops the reports (written on every exit with the alternate screen). */
export const MOUSE_OFF = "\u001b[?1006l\u001b[?1000l";

const SGR_MOUSE = /^\u001b\[<(\d+);\d+;\d+[Mm]$/;

/**
 * For one input sequence: +1 for a wheel notch up (towards older output), -1 down, 0 for any other
 * mouse report (a click, a release: ignored), undefined when `raw` is not a mouse report.
 */
export function wheelStep(raw: string): number | undefined {
  const m = SGR_MOUSE.exec(raw);
  if (!m) return undefined;
  const button = Number(m[1]);
  // Bit 6 marks the wheel; bits 2–4 are Shift/Meta/Ctrl; the low bits pick up (0) or down (1).
  if ((button & 64) === 0 || (button & 128) !== 0) return 0;
  const low = button & 3;
  if (low === 0) return 1;
  if (low === 1) return -1;
  return 0; // horizontal wheel
}
