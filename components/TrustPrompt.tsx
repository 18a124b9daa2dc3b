/**
 * TrustPrompt: the first-run question for a project that ships agent profiles (SPEC §4). Project
 * profiles shape what subagents are told and which tools they get, so they load only once the
 * person trusts them; an edited or new profile asks again.
 */
import { Box, Text, useInput } from "ink";
import { useRef } from "react";
import { perKey } from "./hooks/per-key.js";
import { useTerminalSize } from "./hooks/use-terminal-size.js";

/** Rows of the question around its file list (border, title, cwd, explanation, answers, slack). */
const CHROME_ROWS = 9;

export interface TrustPromptProps {
  /** The project directory. */
  cwd: string;
  /** Profile files not covered by a recorded trust, relative to `cwd`. */
  files: readonly string[];
  /** Called once with the answer: true = trust and load them. */
  onAnswer: (trust: boolean) => void;
}

/** Asks whether to trust the project's agent profiles: y trusts, n (or Esc, or Ctrl-C) skips them. */
export function TrustPrompt({ cwd, files, onAnswer }: TrustPromptProps) {
  // Key by key (`y` + Enter sent together still answers y), and only the first answer counts.
  const answered = useRef(false);
  const answer = (trust: boolean) => {
    if (answered.current) return;
    answered.current = true;
    onAnswer(trust);
  };
  const { rows } = useTerminalSize();
  // The question never grows taller than the terminal: a long list shows its first files and a count.
  const room = Math.max(2, rows - CHROME_ROWS);
  const shown = files.length <= room ? files : files.slice(0, room - 1);
  useInput(
    perKey((input, key) => {
      if (input === "y" || input === "Y") answer(true);
      else if (input === "n" || input === "N" || key.escape || (key.ctrl && input === "c")) answer(false);
    }),
  );
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold>Trust the agent profiles of this project?</Text>
      <Text dimColor>{cwd}</Text>
      {shown.map((f) => (
        <Text key={f} wrap="truncate-end">  • {f}</Text>
      ))}
      {shown.length < files.length ? <Text dimColor>{`  … and ${files.length - shown.length} more`}</Text> : null}
      <Text>Project profiles decide what subagents are told and which tools they get. Load them only if you trust this code.</Text>
      {files.some((f) => f.includes(" runs the hook ")) ? <Text color="yellow">Hooks run their commands on your machine at each event, with your permissions.</Text> : null}
      <Text>
        <Text color="green" bold>[y]</Text> trust and remember (until a profile changes) · <Text color="red" bold>[n]</Text> (or Esc / Ctrl-C) skip them this time
      </Text>
    </Box>
  );
}
