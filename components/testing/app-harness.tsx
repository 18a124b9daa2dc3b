/**
 * A real AgentSession over the scripted provider, rendered in <App/> with ink-testing-library:
 * temp working directory and INK_HOME (with a user-level `scout` profile), cleaned up by `close`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { AgentSession, type AgentSessionOptions } from "../../src/host/agent-session.js";
import { tuiSession, type TuiSession } from "../../src/host/tui-session.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import { createScriptedProvider, type ScriptedProvider, type ScriptedTurn } from "../../src/providers/scripted.js";
import { App } from "../App.js";
import { ApprovalBroker, type ApprovalBrokerOptions } from "../state/approval-broker.js";
import type { ApprovalTiming } from "../state/approval-keys.js";

/** Approval keys answer at once (tests that are about type-ahead pass their own clock). */
export const IMMEDIATE_APPROVALS: ApprovalTiming = { armMs: 0, quietMs: 0, now: () => Date.now() };

/** True for a child's model request. */
export const isChild = (r: ModelRequest): boolean => r.system.includes("# Subagent mode");

/** The first user prompt of a request. */
export function firstPrompt(r: ModelRequest): string {
  const m = r.messages[0];
  if (!m || m.role !== "user") return "";
  return typeof m.content === "string" ? m.content : m.content.map((b) => b.text).join("");
}

export interface AppHarness {
  app: ReturnType<typeof render>;
  session: AgentSession;
  provider: ScriptedProvider;
  approvals: ApprovalBroker;
  cwd: string;
  inkHome: string;
  exits: number[];
  /** Every session the app switched to with /resume or /clear. */
  switched: AgentSession[];
  /** A second session over the same directory and INK_HOME (e.g. to leave an earlier saved session). */
  otherSession(provider: ScriptedProvider): AgentSession;
  close(): void;
}

const SCOUT = `---
name: scout
description: Read-only investigator
tools: read, grep, find, ls
---
You are scout.
`;

/** Builds the session and renders the app. */
export function renderApp(
  script: (request: ModelRequest, index: number) => ScriptedTurn | Promise<ScriptedTurn>,
  options: { broker?: ApprovalBrokerOptions; exitWindowMs?: number; initialPrompt?: string; openResumePicker?: boolean; screenMode?: "fullscreen" | "inline"; approvalTiming?: ApprovalTiming; session?: Partial<AgentSessionOptions>; before?: (dirs: { cwd: string; inkHome: string }) => void } = {},
): AppHarness {
  const cwd = mkdtempSync(join(tmpdir(), "ink-tui-cwd-"));
  const inkHome = mkdtempSync(join(tmpdir(), "ink-tui-home-"));
  mkdirSync(join(inkHome, "agents"), { recursive: true });
  writeFileSync(join(inkHome, "agents", "scout.md"), SCOUT);
  options.before?.({ cwd, inkHome });
  const provider = createScriptedProvider(script);
  const approvals = new ApprovalBroker({ cwd, ...options.broker });
  const base: AgentSessionOptions = { cwd, inkHome, provider, model: provider.defaultModel, interactive: true, approval: { ask: approvals.ask }, persist: true, ...options.session };
  const session = new AgentSession(base);
  const exits: number[] = [];
  const switched: AgentSession[] = [];
  // The app holds each session as the TUI does (a TuiSession); the tests read the AgentSession behind it.
  const bound = new Map<TuiSession, AgentSession>();
  const bind = (s: AgentSession): TuiSession => {
    const client = tuiSession(s);
    bound.set(client, s);
    return client;
  };
  const app = render(
    <App
      session={bind(session)}
      approvals={approvals}
      onExit={(code) => exits.push(code)}
      flushMs={10}
      exitWindowMs={options.exitWindowMs}
      initialPrompt={options.initialPrompt}
      openResumePicker={options.openResumePicker}
      screenMode={options.screenMode}
      approvalTiming={options.approvalTiming ?? IMMEDIATE_APPROVALS}
      openSession={(id) => bind(new AgentSession({ ...base, resume: id }))}
      newSession={() => bind(new AgentSession(base))}
      onSessionChange={(s) => switched.push(bound.get(s)!)}
    />,
  );
  return {
    app,
    session,
    provider,
    approvals,
    cwd,
    inkHome,
    exits,
    switched,
    otherSession: (other) => new AgentSession({ ...base, provider: other, model: other.defaultModel }),
    close() {
      app.unmount();
      for (const s of [session, ...switched]) s.close();
      rmSync(cwd, { recursive: true, force: true });
      rmSync(inkHome, { recursive: true, force: true });
    },
  };
}
