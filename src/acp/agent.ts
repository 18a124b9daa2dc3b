/**
 * The ACP agent (`ink --acp`): an `AgentApp` of the official SDK whose handlers map the protocol
 * onto a session (a SessionClient: ops in, events out) — `initialize`, `session/new` (with the
 * client's MCP servers), `session/load` (a saved main session or child session, replayed as
 * updates: a main one's history by the `get_history` op), `session/prompt` (events streamed
 * as `session/update`; on a loaded child session, a resume of that child — see child-sessions.ts),
 * `session/cancel` (the whole turn, or one child session) — and whose approval
 * questions go to the client as `session/request_permission`. No second copy of session logic:
 * everything it asks of a session is an op (`session.submit`, src/protocol/ops.ts), and what
 * happens comes back as the session's events. `/rewind` and `/merge` are built-in commands
 * (src/host/builtin-commands.ts), answered as agent messages; what they ask the person (stop the
 * running children and rewind?) is a `session/request_permission` too.
 */
import { agent, PROTOCOL_VERSION, RequestError, type AgentApp, type AgentContext, type AvailableCommand, type ContentBlock, type SessionModeState, type SessionUpdate, type StopReason } from "@agentclientprotocol/sdk/unstable";
import { isAbsolute } from "node:path";
import type { SessionClient } from "../host/session-client.js";
import type { ApprovalOptions } from "../core/approval.js";
import type { McpServerConfig } from "../mcp/config.js";
import { errorMessage } from "../protocol/error-message.js";
import type { AgentEvent } from "../protocol/events.js";
import { emptyUsage } from "../protocol/messages.js";
import type { LoopResult } from "../core/loop.js";
import type { PermissionMode } from "../permissions/decide.js";
import { promptChildSession, type ReadChildSession } from "./child-sessions.js";
import { EventUpdates } from "./event-updates.js";
import { acpMcpServers } from "./mcp-servers.js";
import { confirmOnClient, createAcpAsk, type AcpAskOptions } from "./permission.js";
import { replayUpdates } from "./replay.js";
import { runScreenlessCommand, SCREENLESS_COMMANDS, screenlessCommand } from "../host/builtin-commands.js";

/** Ink's permission modes as ACP session modes (`session/set_mode` switches; the response to new/load names the current one). */
export const ACP_MODES: ReadonlyArray<{ id: PermissionMode; name: string; description: string }> = [
  { id: "default", name: "Default", description: "Asks before edits and commands" },
  { id: "accept-edits", name: "Accept edits", description: "Edits run without asking; commands still ask" },
  { id: "plan", name: "Plan", description: "Read-only: looks and plans, changes nothing" },
  { id: "yolo", name: "Yolo", description: "Everything runs without asking" },
];

/** The session's modes for a new/load response. */
export function acpModes(session: SessionClient): SessionModeState {
  const { permissionMode, yoloDisabled } = session.submit({ type: "get_state" });
  return { currentModeId: permissionMode, availableModes: ACP_MODES.filter((m) => m.id !== "yolo" || !yoloDisabled).map((m) => ({ ...m })) };
}

/** What the editor may offer as `/name`: the built-ins `/rewind` and `/merge`, then the command files and the skills run as commands (what session/prompt runs). */
export function acpCommands(session: SessionClient): AvailableCommand[] {
  const builtins = SCREENLESS_COMMANDS.map((c) => ({ name: c.name, description: c.description, input: { hint: c.hint } }));
  return [...builtins, ...session.submit({ type: "list_commands" }).map((c) => ({ name: c.name.replace(/^\//, ""), description: c.description, ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}) }))];
}

/** Creates a session for the client: a new one, or `resume` (a saved main session's id). Throws with a clear message. */
export type AcpSessionFactory = (opts: { cwd: string; resume?: string; extraMcpServers: McpServerConfig[]; ask: NonNullable<ApprovalOptions["ask"]> }) => SessionClient;

interface Running {
  controller: AbortController;
  done: Promise<unknown>;
}

interface Live {
  session: SessionClient;
  /** The session's id and working directory (its `get_state`, read once: neither changes). */
  id: string;
  cwd: string;
  /** Stops listening to the session's channel (at close). */
  unsubscribe: () => void;
  running?: Running;
}

/** A child session the client loaded: prompts resume it through its parent (opened when not open). */
interface LoadedChild {
  parentId: string;
  /** The client's working directory (the parent is opened there). */
  cwd: string;
  /** Where the child ran (its worktree when it had one). */
  childCwd: string;
  mcpServers: Parameters<typeof acpMcpServers>[0];
  running?: Running;
}

/**
 * The agent app, and `closeAll` to stop every prompt and close every session (stdin closed); with
 * `end`, each session's SessionEnd hooks run first (a normal end; a signal exit runs them cut short elsewhere).
 */
export function createAcpAgent(opts: { createSession: AcpSessionFactory; readChild?: ReadChildSession; log: (line: string) => void; version: string }): { app: AgentApp; closeAll: (opts?: { end?: boolean }) => Promise<void> } {
  const sessions = new Map<string, Live>();
  const loadedChildren = new Map<string, LoadedChild>();
  let subagents = false;
  let client: AgentContext | undefined;
  /** Updates go out in order, and before the response of the request they belong to. */
  let sending: Promise<void> = Promise.resolve();
  const send = (sessionId: string, update: SessionUpdate) => {
    const target = client;
    if (!target) return;
    sending = sending.then(() => target.notify("session/update", { sessionId, update })).catch((err) => opts.log(`ink: acp: could not send an update: ${errorMessage(err)}`));
  };

  const requestPermission: AcpAskOptions["request"] = (params, signal) => {
    if (!client) throw new Error("no client connection");
    return client.request("session/request_permission", params, { cancellationSignal: signal, stopWaitingOnCancel: true });
  };
  let questions = 0;

  const open = (cwd: string, mcpServers: Parameters<typeof acpMcpServers>[0], resume?: string): Live => {
    // ACP requires an absolute cwd; a relative or missing one would run tools in Ink's own directory.
    if (typeof cwd !== "string" || !isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path (ACP requires one); got ${cwd === undefined ? "none" : JSON.stringify(cwd)} — send the project's absolute directory`);
    const problems: string[] = [];
    const extraMcpServers = acpMcpServers(mcpServers, problems);
    const holder: { live?: Live } = {};
    const ask = createAcpAsk({
      request: requestPermission,
      get sessionId() {
        return holder.live?.id ?? "";
      },
      subagents: () => subagents,
      signal: () => holder.live?.running?.controller.signal,
      childPrompt: (childId) => loadedChildren.get(childId)?.running?.controller.signal,
    });
    let session: SessionClient;
    try {
      session = opts.createSession({ cwd, resume, extraMcpServers, ask });
    } catch (err) {
      throw RequestError.invalidParams(undefined, errorMessage(err));
    }
    const state = session.submit({ type: "get_state" });
    for (const line of problems) opts.log(`ink: ${line}`);
    // The session's notices (the ones so far, then each later one) go to the log; its other events have no ACP session update here.
    const unsubscribe = session.subscribe((e) => e.type === "notice" && opts.log(`ink: ${e.text}`));
    const live: Live = { session, id: state.sessionId, cwd: state.cwd, unsubscribe };
    holder.live = live;
    sessions.set(live.id, live);
    void session.submit({ type: "start_mcp" });
    return live;
  };

  const app = agent({ name: "ink" })
    .onRequest("initialize", ({ params, client: c }) => {
      client = c;
      subagents = params.clientCapabilities?.subagents != null;
      return {
        protocolVersion: Math.min(params.protocolVersion, PROTOCOL_VERSION),
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
        },
        agentInfo: { name: "ink", title: "Ink", version: opts.version },
        authMethods: [],
      };
    })
    .onRequest("session/new", ({ params, client: c }) => {
      client = c;
      const live = open(params.cwd, params.mcpServers);
      // Saved at once: the editor may load a session it created but never prompted.
      live.session.submit({ type: "save", create: true });
      // After the response, so the client knows the session the update names.
      setTimeout(() => send(live.id, { sessionUpdate: "available_commands_update", availableCommands: acpCommands(live.session) }), 0);
      return { sessionId: live.id, modes: acpModes(live.session) };
    })
    .onRequest("session/load", async ({ params, client: c }) => {
      client = c;
      const child = sessions.has(params.sessionId) ? undefined : readChild(params.sessionId);
      if (child) {
        if (loadedChildren.get(params.sessionId)?.running) throw RequestError.invalidRequest(undefined, `child session ${params.sessionId} is running a prompt; cancel it first`);
        loadedChildren.set(params.sessionId, { parentId: child.parentId, cwd: params.cwd, childCwd: child.cwd, mcpServers: params.mcpServers });
        for (const update of replayUpdates(child.history, child.cwd)) send(params.sessionId, update);
        await sending;
        return {};
      }
      const existing = sessions.get(params.sessionId);
      if (existing?.running) throw RequestError.invalidRequest(undefined, `session ${params.sessionId} is running a prompt; cancel it first`);
      // Open here already (loaded before, or opened to resume one of its children): kept as it is,
      // with what waits for its next prompt (reports of children resumed meanwhile).
      const live = existing ?? open(params.cwd, params.mcpServers, params.sessionId);
      for (const update of replayUpdates(live.session.submit({ type: "get_history" }), live.cwd)) send(live.id, update);
      send(live.id, { sessionUpdate: "available_commands_update", availableCommands: acpCommands(live.session) });
      await sending;
      return { modes: acpModes(live.session) };
    })
    .onRequest("session/set_mode", async ({ params }) => {
      const live = sessions.get(params.sessionId);
      if (!live) throw RequestError.invalidParams(undefined, `unknown session ${params.sessionId}: create it with session/new or load it with session/load`);
      const mode = ACP_MODES.find((m) => m.id === params.modeId);
      if (!mode) throw RequestError.invalidParams(undefined, `unknown mode ${JSON.stringify(params.modeId)}; the modes are ${ACP_MODES.map((m) => m.id).join(", ")}`);
      await live.session.submit({ type: "set_mode", mode: mode.id });
      send(params.sessionId, { sessionUpdate: "current_mode_update", currentModeId: live.session.submit({ type: "get_state" }).permissionMode });
      await sending;
      return {};
    })
    .onRequest("session/prompt", async ({ params, client: c }) => {
      client = c;
      const child = loadedChildren.get(params.sessionId);
      if (child) return promptChild(params.sessionId, child, promptText(params.prompt));
      const live = sessions.get(params.sessionId);
      if (!live) throw RequestError.invalidParams(undefined, `unknown session ${params.sessionId}: create it with session/new or load it with session/load`);
      if (live.running) throw RequestError.invalidRequest(undefined, `session ${params.sessionId} is already running a prompt; wait for it or send session/cancel`);
      const controller = new AbortController();
      const updates = new EventUpdates({ sessionId: live.id, cwd: live.cwd, send, subagents });
      // As in print mode, the first prompt waits until the MCP servers are ready or failed (each bounded by its start-up timeout).
      // A prompt naming a command file (`/review src`) runs that file as the TUI would; a forked one as a child (a task call).
      // `/rewind` and `/merge` are Ink's own: done by their ops and answered as an agent message.
      const text = promptText(params.prompt);
      const onEvent = (e: AgentEvent) => updates.see(e);
      const builtin = screenlessCommand(text);
      const noTurn = (): LoopResult => ({ reason: controller.signal.aborted ? "aborted" : "done", turns: 0, usage: emptyUsage() });
      const done = live.session.submit({ type: "start_mcp" }).then(async (): Promise<LoopResult> => {
        if (builtin) {
          const confirm = (question: string) => confirmOnClient({ request: requestPermission, send: (u) => send(live.id, u), sessionId: live.id, id: `ink-question-${++questions}`, question, signal: controller.signal });
          const progress = (line: string) => send(live.id, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${line}\n` } });
          const answer = await runScreenlessCommand(live.session, builtin, { signal: controller.signal, onEvent, confirm, progress });
          send(live.id, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: answer.text } });
          return noTurn();
        }
        const ran = await live.session.submit({ type: "input", text }, { signal: controller.signal, onEvent });
        return ran.kind === "prompt" ? ran.result : noTurn();
      });
      live.running = { controller, done: done.catch(() => undefined) };
      let stopReason: StopReason;
      try {
        const result = await done;
        stopReason = result.reason === "aborted" || controller.signal.aborted ? "cancelled" : result.reason === "max_iterations" ? "max_turn_requests" : "end_turn";
      } catch (err) {
        if (!controller.signal.aborted) {
          await sending;
          throw RequestError.internalError(undefined, errorMessage(err));
        }
        stopReason = "cancelled";
      } finally {
        live.running = undefined;
      }
      await sending;
      return { stopReason };
    })
    .onNotification("session/cancel", ({ params }) => {
      loadedChildren.get(params.sessionId)?.running?.controller.abort();
      const live = sessions.get(params.sessionId);
      if (live) {
        live.running?.controller.abort();
        return;
      }
      // A child session (announced with subagent_update): stop that child alone.
      for (const l of sessions.values()) if (l.session.submit({ type: "get_state" }).runningChildren.includes(params.sessionId)) l.session.submit({ type: "abort", child: params.sessionId });
    });

  /** The saved child `id` (undefined when it is not a child session); an unreadable file is a clear error. */
  const readChild = (id: string) => {
    try {
      return opts.readChild?.(id);
    } catch (err) {
      throw RequestError.invalidParams(undefined, errorMessage(err));
    }
  };

  const promptChild = async (childId: string, child: LoadedChild, text: string): Promise<{ stopReason: StopReason }> => {
    if (child.running) throw RequestError.invalidRequest(undefined, `child session ${childId} is already running a prompt; wait for it or send session/cancel`);
    const controller = new AbortController();
    const run = (async () => {
      const parent = sessions.get(child.parentId)?.session ?? open(child.cwd, child.mcpServers, child.parentId).session;
      await parent.submit({ type: "start_mcp" });
      return promptChildSession({ parent, childId, cwd: child.childCwd, text, signal: controller.signal, send, subagents });
    })();
    child.running = { controller, done: run.catch(() => undefined) };
    try {
      return { stopReason: await run };
    } finally {
      child.running = undefined;
      await sending;
    }
  };

  const closeAll = async ({ end = false } = {}) => {
    for (const live of [...sessions.values(), ...loadedChildren.values()]) live.running?.controller.abort();
    await Promise.all([...sessions.values(), ...loadedChildren.values()].map((l) => l.running?.done));
    loadedChildren.clear();
    if (end) await Promise.all([...sessions.values()].map((live) => live.session.submit({ type: "end", reason: "other" })));
    for (const live of sessions.values()) {
      live.unsubscribe();
      live.session.submit({ type: "close" });
    }
    sessions.clear();
  };
  return { app, closeAll };
}

/** The prompt's content as one user message: text as is, files as `@path` mentions or their embedded text. */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "resource_link") parts.push(`@${block.uri.replace(/^file:\/\//, "")}`);
    else if (block.type === "resource" && "text" in block.resource) parts.push(`<file uri="${block.resource.uri}">\n${block.resource.text}\n</file>`);
    else parts.push(`[${block.type} content is not supported by Ink and was left out]`);
  }
  return parts.join("\n");
}
