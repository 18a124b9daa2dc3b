/**
 * Prompt: the input box (ink-text-input) with history recall on ↑/↓. Enter hands the text to
 * `onSubmit`, which says whether it was taken (the box then clears) — while a run is in
 * progress the App refuses plain prompts, and the box is greyed.
 */
import { Box, Text, useInput } from "ink";
import TextInput from "ink-text-input";
import { useEffect, useRef, useState } from "react";
import { FRESH_RECALL, recallNext, recallPrevious, type RecallState } from "./hooks/input-history.js";

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
}

/** The bordered input line. */
export function Prompt({ onSubmit, history, focus, busy, label, placeholder, clearOnBlur = false }: PromptProps) {
  const [value, setValueState] = useState("");
  // The latest text, readable by handlers that ink-text-input still holds from an older render
  // (it re-subscribes its key handler in an effect, so a fast Enter can reach a stale closure).
  const latest = useRef("");
  const setValue = (next: string) => {
    latest.current = next;
    setValueState(next);
  };
  // The key handlers stay subscribed whether or not the box has the keyboard, and read these
  // (set on every render) when a key arrives: ink subscribes handlers in effects, so a handler
  // switched on only at a focus change would miss keys typed right after the frame showed.
  const focused = useRef(focus);
  focused.current = focus;
  const submitTo = useRef(onSubmit);
  submitTo.current = onSubmit;
  const recallFrom = useRef(history);
  recallFrom.current = history;
  useEffect(() => {
    if (!focus && clearOnBlur) setValue("");
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focus, clearOnBlur]);
  const recall = useRef<RecallState>(FRESH_RECALL);
  // Remounting TextInput after a recall puts its cursor at the end of the recalled text.
  const [inputKey, setInputKey] = useState(0);

  useInput((_input, key) => {
    if (!focused.current || (!key.upArrow && !key.downArrow)) return;
    const current = latest.current;
    const history = recallFrom.current;
    const next = key.upArrow ? recallPrevious(history, recall.current, current) : recallNext(history, recall.current, current);
    recall.current = { back: next.back, draft: next.draft };
    if (next.value !== current) {
      setValue(next.value);
      setInputKey((k) => k + 1);
    }
  });

  const submit = (submitted?: string) => {
    if (!focused.current) return;
    const text = submitted ?? latest.current;
    if (text.trim() === "") return;
    if (submitTo.current(text)) {
      setValue("");
      recall.current = FRESH_RECALL;
    }
  };

  // Text and Enter can arrive in one chunk (fast typing, pastes, tmux send-keys): ink then hands
  // it over as one "paste" with the carriage return inside. A trailing line break submits; line
  // breaks inside are kept as a multi-line prompt.
  const change = (next: string) => {
    if (!focused.current) return;
    const normalized = next.replace(/\r\n?/g, "\n");
    if (normalized.endsWith("\n")) {
      const text = normalized.replace(/\n+$/, "");
      setValue(text);
      submit(text);
    } else setValue(normalized);
  };

  return (
    <Box borderStyle="round" borderColor={busy || !focus ? "gray" : label ? "magenta" : "cyan"} paddingX={1}>
      {label ? <Text color="magenta" bold>{`${label} `}</Text> : null}
      <Text color={busy ? "gray" : "cyan"} bold>
        {"› "}
      </Text>
      <TextInput
        key={inputKey}
        value={value}
        onChange={change}
        onSubmit={() => submit()}
        focus
        showCursor={focus}
        placeholder={placeholder ?? (busy ? "working… (Ctrl-C to stop)" : "Ask Ink, or /help")}
      />
    </Box>
  );
}
