/**
 * Print mode (`ink -p`): one request, headless. The final answer goes to stdout; one-line
 * progress for tool calls and for each child's start and end goes to stderr; `--output json`
 * prints every event as a JSON line instead; the last stderr line gives the run's tokens and its cost
 * (none when no model has a price, `+` when some had none). Background children are awaited
 * before the final answer; their reports start main turns of their own. A prompt naming a command
 * file (`/review src`) runs that file as the TUI would. `/rewind …` and `/merge …` on a resumed
 * session (`--continue`, `--resume`) do what they do in the TUI and print the answer. Print mode is an
 * adapter: it asks the session only through ops (`session.submit`) and reads its events (a run's,
 * and the session channel's: background children, notices, spend).
 * Exit codes: 0 done, 1 error, 130 interrupted.
 */
import type { SessionClient } from "../host/session-client.js";
import type { AgentEvent } from "../protocol/events.js";
import { finalAssistantText, totalTokens } from "../protocol/messages.js";
import { formatCost } from "../core/pricing.js";
import { UsageLedger } from "../core/usage-ledger.js";
import { errorMessage } from "../protocol/error-message.js";
import { childTitle } from "../subagents/runtime/child-label.js";
import { overlapLine } from "../subagents/runtime/edit-claims.js";
import { pausedText } from "../subagents/runtime/budget.js";
import { resumeCommand } from "../host/launch-command.js";
import { runScreenlessCommand, screenlessCommand } from "../host/builtin-commands.js";

export interface PrintIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Runs `prompt` on `session` (`resumed`: a saved one, `--continue` or `--resume`); resolves with the process exit code. */
export async function runPrintMode(session: SessionClient, prompt: string, opts: { json: boolean; signal: AbortSignal; io: PrintIo; resumed?: boolean }): Promise<number> {
  const { io } = opts;
  // The answer is taken from the main agent's messages as they arrive, never from a position in
  // the history: a compaction during the run rewrites the history (it may end up shorter
  // than it was when the run began).
  const answer = new FinalAnswer();
  const totals = new RunTotals();
  const names = new Map<string, string>();
  const show = opts.json ? (e: AgentEvent) => io.stdout(`${JSON.stringify(e)}\n`) : (e: AgentEvent) => progress(e, io, names);
  // The session's channel: its notices (the ones so far at once; a later one, such as an MCP server
  // that crashes mid-run, when it happens) on stderr, this run's spend, and background children's events.
  const unsubscribe = session.subscribe((e) => {
    if (e.type === "notice") io.stderr(`ink: ${e.text}\n`);
    else if (e.type === "spend") totals.see(e);
    else show(e);
  });
  // Headless there is no frame to show; the one request may need the MCP tools, so wait for the
  // servers to be ready or failed (each is bounded by its start-up timeout).
  await session.submit({ type: "start_mcp" });
  const state = session.submit({ type: "get_state" });
  if (state.provider === "demo") io.stderr("ink: using the offline demo model (no ANTHROPIC_API_KEY is set); set ANTHROPIC_API_KEY to use Claude.\n");
  let budgetStop: string | undefined; // the session's budget stopped the main agent (see budget.ts)
  const onEvent = (e: AgentEvent) => {
    if (e.type === "warning" && e.source === "budget") budgetStop = e.message;
    answer.see(e);
    show(e);
  };
  try {
    const builtin = screenlessCommand(prompt);
    if (builtin) return await runBuiltin(session, builtin, { ...opts, onEvent });
    // A command file (`-p "/review src"`) runs as in the TUI; a forked one's child report is the answer.
    const ran = await session.submit({ type: "input", text: prompt }, { signal: opts.signal, onEvent });
    if (ran.kind === "child") {
      if (opts.signal.aborted) {
        io.stderr("ink: interrupted\n");
        return 130;
      }
      if (!opts.json) io.stdout(ran.result.content.endsWith("\n") ? ran.result.content : `${ran.result.content}\n`);
      session.submit({ type: "save" });
      if (!opts.json) io.stderr(totals.line());
      return ran.result.isError ? 1 : 0;
    }
    let result = ran.result;
    // Background children are awaited before the final answer (each is bounded by the child
    // timeout); their reports start main turns of their own, which may start more children.
    while (result.reason === "done" && !opts.signal.aborted) {
      await session.submit({ type: "wait_background" }, { signal: opts.signal });
      if (opts.signal.aborted) break;
      const more = await session.submit({ type: "deliver_background" }, { signal: opts.signal, onEvent });
      if (!more) break;
      result = more;
    }
    if (opts.signal.aborted) {
      io.stderr("ink: interrupted\n");
      return 130;
    }
    if (result.reason === "aborted" && budgetStop !== undefined) {
      session.submit({ type: "save" });
      const { sessionPath, sessionId } = session.submit({ type: "get_state" });
      io.stderr(`ink: stopped: ${budgetStop}${sessionPath ? `; raise maxTokens / maxCostUsd in settings and continue with ${resumeCommand(sessionId)}` : ""}\n`);
      if (!opts.json) io.stderr(totals.line());
      return 1;
    }
    if (result.reason === "aborted") {
      io.stderr("ink: interrupted\n");
      return 130;
    }
    if (!opts.json) {
      const text = answer.text;
      io.stdout(text.endsWith("\n") ? text : `${text}\n`);
      if (text.trim() === "") io.stderr("ink: the model gave no final text in this run\n");
    }
    if (result.reason === "max_iterations") io.stderr("ink: stopped at the iteration limit\n");
    const unsaved = session.submit({ type: "save" });
    const { sessionPath, sessionId } = session.submit({ type: "get_state" });
    if (!opts.json && sessionPath && !unsaved) io.stderr(`ink: session ${sessionId} saved; continue it with ${resumeCommand(sessionId)} (or --continue)\n`);
    if (!opts.json && sessionPath && unsaved) io.stderr(`ink: session ${sessionId} was NOT fully saved (${unsaved}); this run's answer is above, but --continue will miss what was not written — free disk space or check INK_HOME\n`);
    if (!opts.json) io.stderr(totals.line());
    return 0;
  } catch (err) {
    if (opts.signal.aborted) {
      io.stderr("ink: interrupted\n");
      return 130;
    }
    io.stderr(`ink: error: ${errorMessage(err)}\n`);
    if (!opts.json && totals.any()) io.stderr(totals.line());
    return 1;
  } finally {
    unsubscribe();
  }
}

/**
 * `-p "/rewind …"` or `-p "/merge …"`: done on the resumed session by its ops; the answer goes to
 * stdout (with `--output json`, one `command_result` line), a refusal or failure to stderr with exit 1.
 */
async function runBuiltin(session: SessionClient, command: { name: "rewind" | "merge"; args: string }, opts: { json: boolean; signal: AbortSignal; io: PrintIo; resumed?: boolean; onEvent: (e: AgentEvent) => void }): Promise<number> {
  const { io } = opts;
  if (!opts.resumed) {
    io.stderr(`ink: error: -p "/${command.name}" works on a saved session, and this run started a new one; add --continue (the latest session here) or --resume <id>\n`);
    return 1;
  }
  const answer = await runScreenlessCommand(session, command, { signal: opts.signal, onEvent: opts.onEvent, progress: (line) => io.stderr(`ink: ${line}\n`) });
  session.submit({ type: "save" });
  if (opts.signal.aborted) {
    io.stderr("ink: interrupted\n");
    return 130;
  }
  if (opts.json) io.stdout(`${JSON.stringify({ type: "command_result", command: command.name, ok: answer.ok, text: answer.text })}\n`);
  else if (answer.ok) io.stdout(`${answer.text}\n`);
  if (!answer.ok) io.stderr(`ink: error: ${answer.text}\n`);
  return answer.ok ? 0 : 1;
}

/**
 * Tokens and cost of this run over the whole tree (main agent and children): the `spend` events
 * the session sends meanwhile (what its usage ledger gains — the figures the TUI and a resumed
 * session read), each row priced by its own model.
 */
export class RunTotals {
  private readonly run = new UsageLedger();
  /** Counts one `spend` event. */
  see({ type: _type, usage, ...spender }: Extract<AgentEvent, { type: "spend" }>): void {
    this.run.add(spender, usage);
  }
  /** Whether anything was spent. */
  any(): boolean {
    return this.run.tokens() > 0;
  }
  /** `ink: 13,200 tokens in, 2,100 out · $0.07` (no cost when no model has a price). */
  line(): string {
    const u = this.run.usage();
    const cost = formatCost(this.run.cost());
    return `ink: ${grouped(u.input + u.cacheRead + u.cacheWrite)} tokens in, ${grouped(u.output)} out${cost ? ` · ${cost}` : ""}\n`;
  }
}

/** The main agent's latest assistant text of the run (child messages come wrapped and are ignored). */
class FinalAnswer {
  text = "";
  see(event: AgentEvent): void {
    if (event.type !== "message" || event.message.role !== "assistant") return;
    const text = finalAssistantText([event.message]);
    if (text.trim() !== "") this.text = text;
  }
}

/** `13200` → `13,200`, as `toLocaleString("en-US")` writes it, without loading ICU's locale data (~30 ms). */
export function grouped(n: number): string {
  const [int, frac] = String(Math.round(n * 1000) / 1000).split(".");
  const sign = int!.startsWith("-") ? "-" : "";
  const digits = sign ? int!.slice(1) : int!;
  return `${sign}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${frac ? `.${frac}` : ""}`;
}

/** One stderr line for `event`; `names` remembers each child's title from its start for its end line. */
function progress(event: AgentEvent, io: PrintIo, names: Map<string, string>): void {
  const named = (id: string, profile?: string) => `${names.get(id) ?? profile ?? "general"} [${id}]`;
  switch (event.type) {
    case "tool_start":
      if (event.call.name !== "task") io.stderr(`  → ${event.call.name} ${brief(event.call.arguments)}\n`);
      break;
    case "tool_end":
      if (event.result.isError && event.call.name !== "task") io.stderr(`  ✗ ${event.call.name}: ${firstLine(event.result.content)}\n`);
      break;
    case "warning":
      io.stderr(`ink: warning: ${event.message}\n`);
      break;
    case "retry":
      io.stderr(`  … ${event.reason}; retrying in ${(event.delayMs / 1000).toFixed(1)}s (attempt ${event.attempt})\n`);
      break;
    case "compaction_end":
      if (event.ok) io.stderr(`  ⟳ context compacted: ${event.replacedCount} messages summarised (~${event.tokensBefore} → ~${event.tokensAfter} tokens)\n`);
      else io.stderr(`  ✗ context compaction failed: ${event.error}\n`);
      break;
    case "subagent_event":
      if (event.event.type === "edit_overlap") io.stderr(`  ${named(event.childId, event.profile)} ${overlapLine(event.event)}\n`);
      if (event.event.type === "budget_paused" && !event.event.asking) io.stderr(`  ⏸ ${named(event.childId, event.profile)} ${event.event.scope === "tree" ? "the session's " : ""}${pausedText(event.event)} (spent ${event.event.spent}): stopping it, resumable\n`);
      if (event.event.type === "paused") io.stderr(`  ⏸ ${named(event.childId, event.profile)} paused: ${event.event.label} · retrying in ${Math.ceil(event.event.delayMs / 1000)}s (${event.event.reason})\n`);
      break;
    case "subagent_start": {
      const name = childTitle(event);
      names.set(event.childId, name);
      io.stderr(`  ▶ ${event.resumed ? "resumed" : "started"} ${name} [${event.childId}]: ${firstLine(event.prompt)}\n`);
      break;
    }
    case "background_start":
      io.stderr(`  ⇢ ${named(event.childId, event.profile)} works in the background${event.by === "user" ? " (moved there)" : ""}\n`);
      break;
    case "background_delivery":
      io.stderr(`  ↩ report${event.childIds.length === 1 ? "" : "s"} of ${event.childIds.map((id) => named(id)).join(", ")} delivered to the main agent\n`);
      break;
    case "subagent_end": {
      const s = event.summary;
      const why = s.reason ? ` (${s.reason})` : "";
      io.stderr(`  ■ ${s.status === "ok" ? "finished" : s.status} ${names.get(event.childId) ?? event.profile ?? "general"} [${event.childId}]: ${s.status}${why} · ${s.turns} turns · ${(s.durationMs / 1000).toFixed(1)}s · ${totalTokens(s.usage)} tokens\n`);
      break;
    }
  }
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}

function brief(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}
