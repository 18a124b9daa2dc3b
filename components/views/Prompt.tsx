/**
 * Prompt: the input box — our own line editor (state/line-editor.ts) over ink's raw input, so
 * every key of a chunk counts as if typed alone (a held Backspace; `hello` + Enter sent together
 * submits, and a Tab among them completes — only a bracketed paste keeps line breaks and Tabs as
 * text), with readline keys (Ctrl-A/E,
 * Home/End, Ctrl-U/K/W, word moves), history recall on ↑/↓ and bracketed paste. Enter hands the
 * text to `onSubmit`, which says whether it was taken (the box then clears) — while a run is in
 * progress the screen queues plain prompts (↑ on the empty box takes the newest back). `/` and
 * `@` open a completion menu under the box (Tab or Enter takes the choice, ↑/↓ choose; see
 * state/completion.ts). Alt-Enter, Shift-Enter and `\` + Enter type a line break. Ctrl-C clears a non-empty draft;
 * on an empty one it is the screen's (`onInterrupt`). SPEC §8 names ink-text-input for the box:
 * it handles one key per input event, so the Prompt no longer uses it.
 */
import { Box, Text } from "ink";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { FRESH_RECALL, recallNext, recallPrevious, type RecallState } from "../state/input-history.js";
import { EMPTY_LINE, isPlainTyping, lineOf, reduceLine, splitKeys, type LineState } from "../state/line-editor.js";
import { useRawInput } from "../hooks/use-raw-input.js";
import { draftRows, LineInput } from "./LineInput.js";
import { applyCompletion, completionAt, type Completion, type CompletionSources } from "../state/completion.js";
import { CompletionMenu, completionRows } from "./CompletionMenu.js";

export interface PromptProps {
  /** Called on Enter with the text; return true when it was taken (clears the box). */
  onSubmit: (text: string) => boolean;
  /** Earlier inputs, oldest first, for ↑/↓. */
  history: readonly string[];
  /** Whether keys go to the box (false while an approval question is open). */
  focus: boolean;
  /** A run is in progress: the box is greyed. */
  busy: boolean;
  /** Shown before the `›` (e.g. "↻ resume general [ab12cd]"). */
  label?: string;
  /** Placeholder text when empty (default: the main prompt's). */
  placeholder?: string;
  /** Forget the typed text when the box loses the keyboard. */
  clearOnBlur?: boolean;
  /** Ctrl-C on an empty box (with the keyboard): stop the run / arm exit. */
  onInterrupt?: () => void;
  /**
   * Plain typed text arrived while the box does not have the keyboard: return true to take it
   * (the owner then gives the box the keyboard) — it is typed into the box.
   */
  onTypeWhileAway?: (raw: string) => boolean;
  /** Outer width in columns (default 80). */
  width?: number;
  /** Most rows of text shown; a taller draft shows the rows around the cursor (default 6). */
  maxRows?: number;
  /** Called when the number of text rows shown changes (the screen keeps the rest shorter). */
  onRowsChange?: (rows: number) => void;
  /** Called with the draft whenever it changes (the screen lets Home/End scroll when it is empty). */
  onDraftChange?: (text: string) => void;
  /** ↑ on an empty box: the newest queued prompt, taken back to edit (undefined: recall history as usual). */
  onRecallQueued?: () => string | undefined;
  /** Text put back into the box (e.g. a prompt whose request failed); a new `seq` puts it again. */
  restore?: { text: string; seq: number };
  /** Where the `/` command and `@` file menu looks (absent: no menu). Tab, ↑/↓ and Enter work the menu while it is open. */
  completion?: CompletionSources;
  /** Called when the menu opens or closes (while open, Tab is the menu's, not the screen's). */
  onCompletionOpen?: (open: boolean) => void;
  /** Set to a function that types a raw chunk into the box even without the keyboard (type-ahead while an approval is open). */
  feed?: { current: ((raw: string) => void) | undefined };
}

/** The bordered input line. */
export function Prompt({ onSubmit, history, focus, busy, label, placeholder, clearOnBlur = false, onInterrupt, onTypeWhileAway, width = 80, maxRows = 6, onRowsChange, onDraftChange, restore, onRecallQueued, completion: sources, onCompletionOpen, feed }: PromptProps) {
  // Border and padding (4), the `› ` (2) and the label.
  const textWidth = Math.max(10, width - 6 - (label ? label.length + 1 : 0));
  // Read when a key arrives (set on every render): the handler stays subscribed whatever the focus.
  const props = useRef({ focus, onSubmit, history, onInterrupt, onTypeWhileAway, onRowsChange, onDraftChange, onRecallQueued, sources, onCompletionOpen });
  props.current = { focus, onSubmit, history, onInterrupt, onTypeWhileAway, onRowsChange, onDraftChange, onRecallQueued, sources, onCompletionOpen };
  // The word whose menu Esc closed (`kind:start`): it stays closed while that word is edited.
  const dismissed = useRef<string | undefined>(undefined);
  /** The menu for `state`, if any (only while the box has the keyboard and Esc did not close it). */
  const menuFor = (state: LineState): Completion | undefined => {
    const menu = props.current.sources && props.current.focus ? completionAt(state, props.current.sources) : undefined;
    const word = menu ? `${menu.kind}:${menu.start}` : undefined;
    if (word !== dismissed.current) dismissed.current = undefined;
    return word !== undefined && word === dismissed.current ? undefined : menu;
  };
  // The selected choice, kept while the same word is being completed.
  const choice = useRef({ key: "", index: 0 });
  const selectedIn = (menu: Completion | undefined): number => {
    if (!menu) return 0;
    const key = `${menu.kind}:${menu.start}:${menu.query}`;
    if (choice.current.key !== key) choice.current = { key, index: 0 };
    return Math.min(choice.current.index, menu.items.length - 1);
  };
  const menuOpen = useRef(false);
  // The line lives in a ref, updated key by key: several chunks can arrive before the next render.
  const line = useRef<LineState>(EMPTY_LINE);
  const [shown, setShown] = useState<LineState>(EMPTY_LINE);
  const rowsShown = useRef(1);
  /** Tells the owner how many rows the text takes, when that changed. */
  const reportRows = (state: LineState) => {
    const menu = menuFor(state); // once per key: an @ menu ranks every file of the tree
    const open = menu !== undefined;
    if (open !== menuOpen.current) {
      menuOpen.current = open;
      // Closing is reported after the key's other handlers ran: the Tab that took a choice is not also the screen's.
      if (open) props.current.onCompletionOpen?.(true);
      else setTimeout(() => !menuOpen.current && props.current.onCompletionOpen?.(false), 0);
    }
    const rows = Math.min(maxRows, draftRows(state.value, textWidth).length) + completionRows(menu);
    if (rows === rowsShown.current) return;
    rowsShown.current = rows;
    props.current.onRowsChange?.(rows);
  };
  const setLine = (next: LineState) => {
    line.current = next;
    setShown(next);
    reportRows(next); // with the same render as the text, so the screen never overflows
    props.current.onDraftChange?.(next.value);
  };
  useEffect(() => reportRows(line.current)); // after a width or focus change
  const recall = useRef<RecallState>(FRESH_RECALL);
  useEffect(() => {
    if (restore && line.current.value === "") setLine({ ...lineOf(restore.text), pasting: line.current.pasting });
    // Only a new restore (its seq) refills the box, never a re-render with the same one.
  }, [restore?.seq]);

  // In the commit that takes the keyboard away (a layout effect, not a passive one: React may run
  // passive effects only after the next keys arrived, and then this would wipe what they typed).
  useLayoutEffect(() => {
    if (!focus && clearOnBlur) setLine({ ...EMPTY_LINE, pasting: line.current.pasting });
  }, [focus, clearOnBlur]);

  /** One raw chunk; `fed`: handed over by the screen (type-ahead), typed in even without the keyboard. */
  const handleChunk = (raw: string, fed: boolean) => {
    const { focus: hasKeys, onSubmit: submitTo, history: past, onInterrupt: interrupt, onTypeWhileAway: away } = props.current;
    const keys = splitKeys(raw);
    if (!fed && !hasKeys && !(isPlainTyping(keys) && away?.(raw))) {
      // Paste markers are a terminal mode: follow them even without the keyboard.
      const marker = keys.filter((k) => k.kind === "pasteStart" || k.kind === "pasteEnd").pop();
      if (marker) setLine({ ...line.current, pasting: marker.kind === "pasteStart" });
      return;
    }
    let state = line.current;
    for (const key of keys) {
      // While the menu is open, Tab and Enter take the selected choice and ↑/↓ move the selection.
      const menu = menuFor(state);
      if (menu && !state.pasting && (key.kind === "tab" || key.kind === "up" || key.kind === "down" || key.kind === "newline")) {
        const index = selectedIn(menu);
        if (key.kind === "up" || key.kind === "down") {
          choice.current.index = (index + (key.kind === "up" ? -1 : 1) + menu.items.length) % menu.items.length;
          setShown({ ...state }); // redraw the selection
          continue;
        }
        state = applyCompletion(state, menu, menu.items[index]!);
        if (!(key.kind === "newline" && menu.kind === "command")) continue;
      }
      const step = key.kind === "newline" && menu?.kind === "command" ? { state, effect: "submit" as const } : reduceLine(state, key);
      state = step.state;
      if (step.effect === "submit") {
        if (state.value.trim() !== "" && submitTo(state.value)) {
          state = { ...EMPTY_LINE, pasting: state.pasting };
          recall.current = FRESH_RECALL;
        }
      } else if (step.effect === "up" || step.effect === "down") {
        const queued = step.effect === "up" && state.value === "" && recall.current.back === 0 ? props.current.onRecallQueued?.() : undefined;
        if (queued !== undefined) {
          state = { ...lineOf(queued), pasting: state.pasting };
          continue;
        }
        const next = step.effect === "up" ? recallPrevious(past, recall.current, state.value) : recallNext(past, recall.current, state.value);
        recall.current = { back: next.back, draft: next.draft };
        if (next.value !== state.value) state = { ...lineOf(next.value), pasting: state.pasting };
      } else if (step.effect === "interrupt") {
        if (state.value === "") interrupt?.();
        else {
          state = { ...EMPTY_LINE, pasting: state.pasting };
          recall.current = FRESH_RECALL;
        }
      } else if (step.effect === "escape" && menu) {
        // Esc closes the menu (the screen leaves the run alone while a menu is open).
        dismissed.current = `${menu.kind}:${menu.start}`;
        reportRows(state);
        setShown({ ...state });
      }
    }
    if (state !== line.current) setLine(state);
  };
  useRawInput((raw) => handleChunk(raw, false));
  if (feed) feed.current = (raw) => handleChunk(raw, true);

  const menu = focus && sources ? menuFor(shown) : undefined;
  return (
    <Box flexDirection="column" flexShrink={0}>
    <Box borderStyle="round" borderColor={busy || !focus ? "gray" : label ? "magenta" : "cyan"} paddingX={1}>
      {label ? <Text color="magenta" bold>{`${label} `}</Text> : null}
      <Text color={busy ? "gray" : "cyan"} bold>
        {"› "}
      </Text>
      <LineInput value={shown.value} cursor={shown.cursor} showCursor={focus} width={textWidth} maxRows={maxRows} placeholder={placeholder ?? (busy ? (focus ? "working… (Esc stops the turn · Enter queues a prompt)" : "working…") : "Ask Ink · / commands · @ files · ! shell")} />
    </Box>
    <CompletionMenu completion={menu} selected={selectedIn(menu)} width={width} />
    </Box>
  );
}
