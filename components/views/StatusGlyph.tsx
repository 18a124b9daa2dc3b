/** StatusGlyph: a tool call's state as one character — spinner while running, ✓ done, ✗ failed. */
import { Text } from "ink";
import { spinnerFrame } from "../state/format.js";
import type { ToolStatus } from "../state/transcript-types.js";

export interface StatusGlyphProps {
  /** The call's state. */
  status: ToolStatus;
  /** UI clock (ms), drives the spinner. */
  now: number;
}

/** The glyph, coloured by state. */
export function StatusGlyph({ status, now }: StatusGlyphProps) {
  if (status === "ok") return <Text color="green">✓</Text>;
  if (status === "error") return <Text color="red">✗</Text>;
  return <Text color="yellow">{spinnerFrame(now)}</Text>;
}
