/** The keys of each focused area: the status bar's hint line and the key list of /help. */
import type { ScreenMode } from "./ui-reducer.js";
import type { UiFocus } from "./ui-reducer.js";

/** Footer keys of the tool-output overlay (Ctrl-T). */
export const TOOL_OVERLAY_KEYS = "Ctrl-T/Esc close";

/** The hint line while a question is open (an approval, a reached budget, "stop the children?"): its keys are on it. */
export const QUESTION_KEYS = "answer the question above (its keys are on it; typing ahead goes to the prompt) · Ctrl-C stop all";

/**
 * The hint line for `focus` (`running`: a run is in progress; full-screen adds the scroll keys;
 * `toolOutput`: the open overlay is the tool output's, not a child's; `childRunning`: the open
 * transcript's child runs — it cannot be resumed, r writes it a message).
 */
export function keyHints(focus: UiFocus, running: boolean, mode: ScreenMode = "inline", toolOutput = false, message = false, childRunning = false): string {
  const scroll = mode === "fullscreen" ? " · PgUp/PgDn scroll · Ctrl-F search" : "";
  switch (focus) {
    case "prompt":
      return running ? `Tab focus a child pane / sidebar · Esc stop turn · Ctrl-B background · Ctrl-C stop all${scroll} · Ctrl-T output` : `Enter send · ↑/↓ history · Tab sidebar${scroll} · Ctrl-T output · /help · Ctrl-C twice exit`;
    case "pane":
      return "type a message for this child · Ctrl-X stop it · Ctrl-B background · Ctrl-R retry now if paused · Enter transcript · Tab next · Esc prompt · Ctrl-C stop all";
    case "sidebar":
      return "↑/↓ select · Enter transcript (r there resumes it) · Tab/Esc close · typing goes to the prompt";
    case "overlay":
      return toolOutput ? `↑/↓ PgUp/PgDn Home/End scroll · ${TOOL_OVERLAY_KEYS}` : `↑/↓ PgUp/PgDn Home/End scroll · ${childRunning ? "r write it a message" : "r resume"} · Esc back`;
    case "resume":
      return message ? "the child reads your message at its next step · Enter send · Esc back to its pane" : "type the child's new prompt · Enter run it · Esc cancel";
    case "picker":
      return "↑/↓ select · Enter open the session · Esc cancel";
  }
}

/** Every key, for /help. */
export const HELP_KEYS: readonly string[] = [
  "Enter send · ↑/↓ recall earlier inputs · a new line: Alt-Enter, Shift-Enter (where the terminal reports it) or \\ then Enter",
  "/ opens the command menu, @ the file menu (Tab or Enter takes the choice, ↑/↓ choose); @path attaches that file to the message · !command runs your shell command without an approval question (only a deny rule refuses it) and hands its output to the next message",
  "Esc on the prompt stops the main agent's turn only: its running children go on in the background (Ctrl-C stops them too); a prompt with no answer yet goes back in the box; anywhere else Esc only goes back (closes a menu, a pane's focus, the sidebar, a transcript, an overlay) · Enter while a run works queues the prompt (↑ on the empty box takes it back) · Esc Esc on the empty prompt while idle lists the turns /rewind can take back",
  "editing: ←/→ · Alt-←/→ or Ctrl-←/→ by word · Home/End or Ctrl-A/Ctrl-E · Ctrl-U/Ctrl-K delete to start/end · Ctrl-W delete the word before",
  "Tab / Shift-Tab move the keyboard: prompt → each running child pane → child-session sidebar → prompt",
  "focused pane: typing writes that child a message (it reads it at its next step, never mid tool call) · Ctrl-X stop that child alone (the others and the main agent go on) · Ctrl-R a paused child (rate limit, overload, lost connection) tries again now · Enter its live transcript · Esc back to the prompt",
  "sidebar: ↑/↓ select · Enter open the child's full transcript (live while it runs) · Esc close · typing goes to the prompt",
  "transcript: ↑/↓ line · PgUp/PgDn page · Home/End · r resume the child with a new prompt (a running child's: r writes it a message, read at its next step) · Esc back to the sidebar",
  "Ctrl-T show the whole output of the latest tool calls (long results are read back from the session file) · ↑/↓ PgUp/PgDn Home/End scroll · Ctrl-T or Esc close",
  "Ctrl-C clear the typed text; on an empty prompt stop the running work (every child too) · Ctrl-C twice when idle: exit",
  "approval prompts: y yes · n or Esc no · a then Enter always allow this tool for the session · s then Enter allow and save the shown rule to your settings ($INK_HOME/settings.json) · r deny with a reason · keys typed ahead go to the prompt, not the question",
  "budget question (a child's or the session's budget reached): 1 add half the budget (+50%) · 2 add the whole budget again (2×) · t type an amount, then Enter (Esc back) · s or Esc stop (a child stays resumable) · keys typed ahead go to the prompt",
  "Alt-M the next permission mode (default → accept-edits → plan; /mode yolo by name), shown in the status bar",
  "full-screen: PgUp/PgDn scroll the transcript · Home/End (on an empty prompt) top / back to the live end · Ctrl-F search, thoughts too (Enter/↑ older hit, ↓ newer, Ctrl-U clear, Esc close) · Ctrl-S show/hide the standing sidebar · Ctrl-O open/close details in place (children's reports, whole tool results — a long one's first lines, Ctrl-T has it all — thoughts)",
];
