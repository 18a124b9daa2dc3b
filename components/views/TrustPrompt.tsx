/**
 * TrustPrompt: the first-run question for a project that ships files that act only once trusted
 * (SPEC §4): agent profiles, settings with hooks and permission rules, command files, skills, MCP
 * servers. The title counts what trusting loads ("2 agent profiles, 1 hook, .mcp.json with 2 servers,
 * 3 permission rules"); an edited or new file asks again. Type-ahead
 * never answers it (state/trust-keys.ts): what was typed while Ink started goes to the prompt.
 */
import { Box, Text } from "ink";
import { useRef } from "react";
import { DEFAULT_APPROVAL_TIMING, type ApprovalTiming } from "../state/approval-keys.js";
import { initialTrustKeys, trustKey, type TrustKeyState } from "../state/trust-keys.js";
import { useRawInput } from "../hooks/use-raw-input.js";
import { useTerminalSize } from "../hooks/use-terminal-size.js";

/** Rows of the question around its file list besides the title (border, cwd, explanation, answers, slack). */
const CHROME_ROWS = 8;

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

/** "1 skill", "2 skills". */
function counted(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}

/**
 * What trusting loads, counted from the list (src/hooks/config.ts trustQuestionFiles), in a fixed
 * order: "2 agent profiles", "2 hooks", "1 command file", "1 skill", ".mcp.json with 2 servers",
 * "3 permission rules" — and "settings" for a settings file with neither hooks nor rules.
 */
export function trustKinds(files: readonly string[]): string[] {
  const count = (test: (f: string) => boolean) => files.filter(test).length;
  const kinds: string[] = [];
  const profiles = count((f) => /^\.(ink|claude)\/agents\//.test(f));
  if (profiles) kinds.push(counted(profiles, "agent profile"));
  const hooks = count((f) => f.includes(" runs the hook "));
  if (hooks) kinds.push(counted(hooks, "hook"));
  const commands = count((f) => /^\.(ink|claude)\/commands\//.test(f));
  if (commands) kinds.push(counted(commands, "command file"));
  const skills = count((f) => f.endsWith("/SKILL.md"));
  if (skills) kinds.push(counted(skills, "skill"));
  if (files.includes(".mcp.json")) {
    const servers = count((f) => f.startsWith(".mcp.json starts the MCP server "));
    kinds.push(servers ? `.mcp.json with ${counted(servers, "server")}` : ".mcp.json");
  }
  const rules = files.reduce((n, f) => n + Number(/ sets (\d+) permission rules?:/.exec(f)?.[1] ?? 0), 0);
  if (rules) kinds.push(counted(rules, "permission rule"));
  // A settings file with neither hooks nor rules still sets something (env, model, …).
  const settings = files.filter((f) => /settings(\.local)?\.json$/.test(f));
  if (settings.some((s) => !files.some((f) => f.startsWith(`${s} runs the hook `) || f.startsWith(`${s} sets `)))) kinds.push("settings");
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
  const { rows, columns } = useTerminalSize();
  const title = `Trust this project's ${listed(trustKinds(files))}?`;
  // The question never grows taller than the terminal: a long list shows its first files and a count.
  // Each warning below the list takes about two rows at 80 columns.
  const warnings = [files.some((f) => f.includes(" runs the hook ")), files.some((f) => f.startsWith(".mcp.json starts the MCP server "))].filter(Boolean).length;
  const titleRows = Math.ceil(title.length / Math.max(20, columns - 4));
  const room = Math.max(2, rows - CHROME_ROWS - titleRows - 2 * warnings);
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
      <Text bold>{title}</Text>
      <Text dimColor>{cwd}</Text>
      {shown.map((f) => (
        <Text key={f} wrap="truncate-end">  • {f}</Text>
      ))}
      {shown.length < files.length ? <Text dimColor>{`  … and ${files.length - shown.length} more`}</Text> : null}
      <Text>Project profiles, settings, commands and skills decide what agents are told, which tools they get and what runs without asking. Load them only if you trust this code.</Text>
      {files.some((f) => f.includes(" runs the hook ")) ? <Text color="yellow">Hooks run their commands on your machine at each event, with your permissions.</Text> : null}
      {files.some((f) => f.startsWith(".mcp.json starts the MCP server ")) ? <Text color="yellow">MCP servers run their commands on your machine (or reach the addresses named) as soon as Ink starts.</Text> : null}
      <Text>
        <Text color="green" bold>[y]</Text> trust and remember (until one of them changes) · <Text color="red" bold>[n]</Text> (or Esc / Ctrl-C) skip them this time
      </Text>
    </Box>
  );
}
