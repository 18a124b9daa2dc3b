/**
 * TrustPrompt: the first-run question for a project that ships files that act only once trusted
 * (SPEC §4): agent profiles, settings with hooks and permission rules, command files, skills, MCP
 * servers. The title names each kind the list holds; an edited or new file asks again. Type-ahead
 * never answers it (hooks/trust-keys.ts): what was typed while Ink started goes to the prompt.
 */
import { Box, Text } from "ink";
import { useRef } from "react";
import { DEFAULT_APPROVAL_TIMING, type ApprovalTiming } from "./hooks/approval-keys.js";
import { initialTrustKeys, trustKey, type TrustKeyState } from "./hooks/trust-keys.js";
import { useRawInput } from "./hooks/use-raw-input.js";
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
  /** When a key may answer (default: the approvals' timing). */
  timing?: ApprovalTiming;
  /** Typing that answered nothing (keys typed while Ink started, a sentence): kept for the prompt. */
  onTypeAhead?: (raw: string) => void;
}

/** The kinds of trusted file the list holds, in a fixed order ("agent profiles", "hooks", …). */
export function trustKinds(files: readonly string[]): string[] {
  const has = (test: (f: string) => boolean) => files.some(test);
  const kinds: string[] = [];
  if (has((f) => /^\.(ink|claude)\/agents\//.test(f))) kinds.push("agent profiles");
  if (has((f) => f.includes(" runs the hook "))) kinds.push("hooks");
  if (has((f) => /settings(\.local)?\.json$/.test(f))) kinds.push("settings", "permission rules");
  if (has((f) => /^\.(ink|claude)\/commands\//.test(f))) kinds.push("commands");
  if (has((f) => f.endsWith("/SKILL.md"))) kinds.push("skills");
  if (has((f) => f === ".mcp.json")) kinds.push("MCP servers");
  return kinds.length ? kinds : ["files"];
}

/** "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** Asks whether to trust the project's files: y trusts, n (or Esc, or Ctrl-C) skips them. */
export function TrustPrompt({ cwd, files, onAnswer, timing = DEFAULT_APPROVAL_TIMING, onTypeAhead }: TrustPromptProps) {
  // Only the first answer counts; keys after it are type-ahead too.
  const answered = useRef(false);
  const keys = useRef<TrustKeyState | undefined>(undefined);
  keys.current ??= initialTrustKeys(timing.now());
  const { rows } = useTerminalSize();
  // The question never grows taller than the terminal: a long list shows its first files and a count.
  const room = Math.max(2, rows - CHROME_ROWS);
  const shown = files.length <= room ? files : files.slice(0, room - 1);
  useRawInput(
    (raw) => {
      if (answered.current) return onTypeAhead?.(raw);
      const step = trustKey(keys.current!, raw, timing);
      keys.current = step.state;
      if (step.toDraft !== undefined) onTypeAhead?.(step.toDraft);
      if (step.answer !== undefined) {
        answered.current = true;
        onAnswer(step.answer);
      }
    },
    { sync: true },
  );
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold>{`Trust this project's ${listed(trustKinds(files))}?`}</Text>
      <Text dimColor>{cwd}</Text>
      {shown.map((f) => (
        <Text key={f} wrap="truncate-end">  • {f}</Text>
      ))}
      {shown.length < files.length ? <Text dimColor>{`  … and ${files.length - shown.length} more`}</Text> : null}
      <Text>Project profiles, settings, commands and skills decide what agents are told, which tools they get and what runs without asking. Load them only if you trust this code.</Text>
      {files.some((f) => f.includes(" runs the hook ")) ? <Text color="yellow">Hooks run their commands on your machine at each event, with your permissions.</Text> : null}
      <Text>
        <Text color="green" bold>[y]</Text> trust and remember (until one of them changes) · <Text color="red" bold>[n]</Text> (or Esc / Ctrl-C) skip them this time
      </Text>
    </Box>
  );
}
