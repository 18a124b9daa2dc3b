/**
 * App: the full-screen Ink UI. It wires the session's event stream (useAgentStream), approval
 * questions (ApprovalBroker), the prompt with slash commands, the status bar and Ctrl-C:
 * while a run is in progress Ctrl-C aborts it (the core relays the abort to every child); when
 * idle the first Ctrl-C arms "press again to exit" and a second one within the window exits.
 */
import { Box, useApp, useInput, useStdout } from "ink";
import { useCallback, useEffect, useRef, useState } from "react";
import type { AgentSession } from "../src/agent-session.js";
import { ApprovalModal } from "./ApprovalModal.js";
import { runningChildren } from "./hooks/agent-stream-reducer.js";
import type { ApprovalBroker } from "./hooks/approval-broker.js";
import { runSlashCommand } from "./hooks/slash-commands.js";
import { useAgentStream } from "./hooks/use-agent-stream.js";
import { useApprovalRequest } from "./hooks/use-approval-request.js";
import { useExitGuard } from "./hooks/use-exit-guard.js";
import { useNow } from "./hooks/use-now.js";
import { useTerminalSize } from "./hooks/use-terminal-size.js";
import { Prompt } from "./Prompt.js";
import { StatusBar } from "./StatusBar.js";
import { Transcript } from "./Transcript.js";

/** Clears the screen and the scrollback, cursor home (used by /clear). */
export const CLEAR_SCREEN = "\u001b[2J\u001b[3J\u001b[H";

export interface AppProps {
  /** The conversation this UI drives. */
  session: AgentSession;
  /** The approval bridge whose `ask` the session was created with. */
  approvals: ApprovalBroker;
  /** Sent as the first prompt when the app starts. */
  initialPrompt?: string;
  /** Called once with the exit code when the person leaves, just before the app unmounts. */
  onExit?: (code: number) => void;
  /** Longest wait before streamed events are drawn (ms, default 50). */
  flushMs?: number;
  /** Time allowed for the second Ctrl-C (ms, default 2000). */
  exitWindowMs?: number;
}

/** The whole screen: transcript, approval question, prompt, status bar. */
export function App({ session, approvals, initialPrompt, onExit, flushMs, exitWindowMs }: AppProps) {
  const stream = useAgentStream(session, { flushMs });
  const { state } = stream;
  const request = useApprovalRequest(approvals);
  const { columns, rows } = useTerminalSize();
  const now = useNow(state.running);
  const guard = useExitGuard(exitWindowMs);
  const [history, setHistory] = useState<string[]>([]);
  const [hint, setHint] = useState<string | undefined>();
  const { exit } = useApp();
  const { write } = useStdout();
  const leaving = useRef(false);

  const leave = useCallback(() => {
    if (leaving.current) return;
    leaving.current = true;
    setHint("exiting…");
    approvals.cancelAll("Ink is exiting");
    stream.abortAll();
    void stream.whenIdle().then(() => {
      onExit?.(0);
      exit();
    });
  }, [approvals, stream, onExit, exit]);

  useInput((input, key) => {
    if (!key.ctrl || input !== "c") return;
    if (stream.isRunning()) {
      approvals.cancelAll("the user stopped the run (Ctrl-C)");
      stream.abortAll();
      setHint("stopping… every running agent is being aborted");
      return;
    }
    if (guard.press()) leave();
  });

  useEffect(() => {
    if (!state.running) setHint(undefined);
  }, [state.running]);

  const handleSubmit = (text: string): boolean => {
    const input = text.trim();
    if (input === "") return false;
    const outcome = runSlashCommand(input, { profiles: session.profiles.profiles, notices: session.notices, alwaysAllowed: approvals.alwaysAllowed() });
    if (outcome === undefined && stream.isRunning()) {
      setHint("a run is in progress — wait for it to finish, or press Ctrl-C to stop it");
      return false;
    }
    setHistory((h) => (h[h.length - 1] === input ? h : [...h, input]));
    setHint(undefined);
    if (outcome === undefined) return stream.submit(input);
    if (outcome.kind === "lines") stream.notice(outcome.lines.join("\n"), outcome.tone);
    else if (outcome.kind === "clear") {
      write(CLEAR_SCREEN);
      stream.clear();
    } else leave();
    return true;
  };

  const started = useRef(false);
  useEffect(() => {
    if (started.current || !initialPrompt) return;
    started.current = true;
    handleSubmit(initialPrompt);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <Box flexDirection="column">
      <Transcript finished={state.finished} live={state.live} epoch={state.epoch} now={now} columns={columns} rows={rows} />
      {request ? <ApprovalModal request={request} onAnswer={(id, answer) => approvals.answer(id, answer)} width={columns} /> : null}
      <Prompt onSubmit={handleSubmit} history={history} focus={request === undefined} busy={state.running} />
      <StatusBar
        model={session.model}
        provider={session.provider.name}
        contextTokens={state.contextTokens}
        contextWindow={session.provider.contextWindow(session.model)}
        usage={state.usage}
        runningChildren={runningChildren(state)}
        running={state.running}
        now={now}
        hint={guard.armed ? "Press Ctrl-C again to exit" : hint}
      />
    </Box>
  );
}
