/**
 * AgentSession: one conversation with the main agent, assembled the same way for every mode
 * (print mode, TUI, RPC, ACP): provider, the tool pool (session-tools.ts), the project set-up
 * (project-setup.ts: trust, profiles, MCP servers, context), the settings' rules (session-rules.ts:
 * approval, hooks, budget), system prompt, and the session file that records every message and
 * task record as it happens. Main runs: main-run.ts; the person's `!` and task runs: person-runs.ts;
 * background children: session-children.ts; notices and report lines: session-notices.ts.
 */
import { resolveModelAlias, unservedModelWarning } from "../protocol/model-catalog.js";
import { resolve } from "node:path";
import type { ApprovalPolicy } from "../core/approval.js";
import type { PermissionMode } from "../permissions/decide.js";
import type { Compactor } from "../core/compaction.js";
import type { AgentEvent } from "../protocol/events.js";
import { MAIN_AGENT, type LoopResult } from "../core/loop.js";
import { emptyUsage, toolCallsOf, type AgentMessage, type ToolResult, type Usage } from "../protocol/messages.js";
import { buildSystemPrompt } from "../core/system-prompt.js";
import type { OnToolCall } from "../core/tool-runner.js";
import type { Provider } from "../protocol/provider.js";
import { fingerprint } from "../session/fingerprint.js";
import { newSessionId } from "../session/ids.js";
import { MainSessionFile } from "../session/main-session-file.js";
import { SessionStore } from "../session/store.js";
import type { NoteTone, TaskRecord, ViewEntry } from "../session/types.js";
import { restoredSettings } from "../core/restore-settings.js";
import { EditClaims } from "../subagents/runtime/edit-claims.js";
import { toToolSpec } from "../tools/spec.js";
import type { AnyTool } from "../protocol/tool.js";
import { McpManager } from "../mcp/manager.js";
import type { ChildReportNote } from "../protocol/child-report-note.js";
import { PendingNotes } from "../core/pending-notes.js";
import { PROMPT_FAILED_STATUS, withdrawOnFailure, type FailedPrompt } from "../core/failed-turn.js";
import type { ShellNote } from "../core/shell-command.js";
import { formatProfileList, type ProfileLoad } from "../subagents/profiles/profiles.js";
import type { ProjectContext } from "../context/project-context.js";
import { loadProjectSetup, rememberProjectTrust } from "./project-setup.js";
import { formatSkillList } from "../skills/skill-tool.js";
import { modelSkills } from "../skills/skill-parse.js";
import type { SkillLoad } from "../skills/skills.js";
import type { CommandLoad, FileCommand } from "../commands/command-files.js";
import { commandModel, expandCommandWithContext, findCommandInvocation, skillCommands, type CommandInvocation } from "../commands/command-run.js";
import { runShellCommand } from "../core/shell-command.js";
import { MainInbox } from "../core/main-inbox.js";
import type { SessionHooks } from "../hooks/session-hooks.js";
import { takeDeliveries } from "../subagents/tools/task-wait-tool.js";
import type { TreeBudget } from "../subagents/runtime/tree-budget.js";
import type { AskBudget } from "../subagents/runtime/budget.js";
import type { AgentSessionOptions } from "./agent-session-options.js";
import type { SandboxSettings } from "../tools/sandbox.js";
import { buildSessionTools, syncMcpTools } from "./session-tools.js";
import { loadSessionRules, unpricedTreeBudgetNotice } from "./session-rules.js";
import type { UsageLedger } from "../core/usage-ledger.js";
import { SessionNotices, sessionCommandLines, type NoticeSources } from "./session-notices.js";
import { modelListing } from "./model-listing.js";
import { promptMessage, runMainPrompt, sessionCompactor, type MainRunDeps } from "./main-run.js";
import { runPersonShell, runPersonTaskRun, type PersonRunDeps } from "./person-runs.js";
import { SessionChildrenApi } from "./session-children.js";
import { CheckpointStore, removeOrphanCheckpoints, type TurnSummary } from "../checkpoints/store.js";
import { withCheckpoints } from "../checkpoints/checkpoint-calls.js";
import { historyHead, rewindTo, type CheckpointBound, type RewindOptions, type RewindResult } from "../checkpoints/rewind.js";
import { conflictPrompt, inspectQueue, mergeQueue, type BranchState, type MergeConflict, type MergeOutcome } from "../merge/merge-queue.js";
import { keptBranches, sessionRecords } from "../merge/session-merge.js";
import { createMergeBranchesTool } from "../merge/merge-tool.js";
import type { Op, OpType } from "../protocol/ops.js";
import { dispatchOp, SubmittedRuns, type Answerers, type CommandRun, type OpResults, type SubmitOptions, type SubmitTarget } from "./session-submit.js";
import type { SessionClient } from "./session-client.js";

export type { AgentSessionOptions } from "./agent-session-options.js";

export class AgentSession extends SessionChildrenApi implements SubmitTarget, SessionClient {
  readonly cwd: string;
  readonly provider: Provider;
  /** The model of the next main turns (and of children whose profile names none); `/model` changes it. */
  model: string;
  readonly system: string;
  readonly tools: AnyTool[];
  readonly profiles: ProfileLoad;
  /** Agent Skills found at start-up (`/skills`); the `skill` tool loads one. */
  readonly skills: SkillLoad;
  /** Slash-command files found at start-up (the `/` menu). */
  readonly commands: CommandLoad;
  readonly store?: SessionStore;
  readonly history: AgentMessage[] = [];
  readonly onToolCall: OnToolCall;
  private readonly policy: ApprovalPolicy;
  /** The session's file, lock and lease; undefined when sessions are not saved. */
  private readonly file?: MainSessionFile;
  /** Files the running children changed (edit conflicts) and the kept worktree branches. */
  private readonly editClaims = new EditClaims();
  /** Messages for the main agent while a prompt runs (`steer`). */
  private readonly inbox = new MainInbox();
  private readonly mainCompactor: Compactor;
  /** Where the main agent's compaction events go during a prompt. */
  private emitMain: (event: AgentEvent) => void = () => undefined;
  /** Id of the main session file (created on the first prompt, or the resumed one). */
  readonly sessionId: string;
  /** The session's MCP servers; started by `startMcp()` (after the first frame), never by the constructor. */
  readonly mcp: McpManager;
  /** Notices for the person: resume repairs, MCP problems (also published later, see `onNotice`), leftover worktrees, budgets. */
  private readonly notes = new SessionNotices();
  /** AGENTS.md / CLAUDE.md files in the system prompt (`/context`). */
  readonly context: ProjectContext;
  private readonly trusted: boolean;
  /** Task records of a resumed session's file, in file order (children shown as summaries). */
  readonly taskRecords: TaskRecord[] = [];
  /** Notes and `!` commands of a resumed session's file, placed among `history` (the transcript shows them). */
  readonly view: ViewEntry[] = [];
  /** Children's reports and `!` commands waiting for the next user message. */
  private readonly pending = new PendingNotes();
  /** SessionEnd has run (it runs once). */
  private ended = false;
  /** The hooks of settings.json (and, trusted, the project's settings files). */
  private readonly hooks: SessionHooks;
  /** The last prompt whose request failed for good (see core/failed-turn.ts); cleared by the next prompt. */
  lastFailure?: FailedPrompt;
  /** The session tree's budget (settings maxTokens / maxCostUsd): every agent's spend, and its question when reached. */
  readonly treeBudget: TreeBudget;

  /** Every token the session tree spent, by agent, run and model (saved with the session): the one source of its tokens and cost. */
  get ledger(): UsageLedger {
    return this.treeBudget.ledger;
  }
  /** The user's `sandbox` settings (named in the boundary notice). */
  private sandboxSettings?: SandboxSettings;
  /** Snapshots before every agent change to the shared tree (`/rewind`); undefined when sessions are not saved. */
  readonly checkpoints?: CheckpointStore;
  /** The runs `submit` started (an `abort` op stops them). */
  private readonly submitted = new SubmittedRuns();
  /** Who answers the approval and budget questions (`approve`, `deny`, `answer_budget` ops); a front end sets them. */
  private readonly answerers: Answerers;

  constructor(private readonly options: AgentSessionOptions) {
    super(() => this.file);
    this.answerers = { approval: options.answerApproval };
    this.cwd = resolve(options.cwd);
    this.provider = options.provider;
    this.model = options.model;
    const setup = loadProjectSetup({ inkHome: options.inkHome, cwd: this.cwd, trustFlag: options.trust ?? false, mcpServers: options.mcpServers, extraMcpServers: options.extraMcpServers });
    this.profiles = setup.profiles;
    this.skills = setup.skills;
    this.commands = setup.commands;
    this.trusted = setup.trusted;
    this.notes.mcp.push(...setup.mcp.problems);
    this.mcp = new McpManager(setup.mcp.servers, { onChange: () => syncMcpTools(this.tools, this.mcp.tools()), onProblem: (m) => this.notes.lateProblem(m) });
    this.context = setup.context;
    this.notes.worktree = setup.worktreeNotice;
    this.notes.untrusted = setup.untrustedNotice;
    this.store = options.persist === false ? undefined : new SessionStore(options.inkHome);
    this.sessionId = options.resume ?? newSessionId();
    if (this.store) {
      this.file = new MainSessionFile({
        store: this.store,
        sessionId: this.sessionId,
        resume: options.resume !== undefined,
        takeOverLock: options.takeOverLock,
        leaseIntervalMs: options.leaseIntervalMs,
        header: (prompt) => ({ kind: "main", cwd: this.cwd, provider: this.provider.name, model: this.model, fingerprint: fingerprint(this.system, this.tools.map(toToolSpec)), toolNames: this.tools.map((t) => t.name), prompt }),
      });
    }
    const loaded = options.resume ? this.file?.load(this.cwd) : undefined;
    if (options.resume && !loaded) throw new Error("cannot resume a session when sessions are not saved");
    if (loaded) {
      this.history.push(...loaded.messages);
      this.taskRecords.push(...loaded.records);
      this.view.push(...loaded.view);
      this.pending.shell.push(...loaded.pendingShell);
      this.children.restore(loaded.pendingBackground);
      this.notes.resume.push(...loaded.notes);
    }
    if (options.trust) rememberProjectTrust(options.inkHome, this.cwd);
    const report = (message: string) => this.emitMain({ type: "warning", source: "hook", message });
    const rules = loadSessionRules({ inkHome: options.inkHome, cwd: this.cwd, trusted: this.trusted, sessionId: this.sessionId, approval: options.approval, transcriptPath: () => this.file?.path, report });
    ({ hooks: this.hooks, policy: this.policy, onToolCall: this.onToolCall, treeBudget: this.treeBudget } = rules);
    // The usage ledger: a resumed session's saved rows, then every addition saved as it happens (see core/usage-ledger.ts).
    if (loaded) this.treeBudget.ledger.restore(loaded.spend);
    this.treeBudget.ledger.subscribe((spender, usage) => this.file?.recordLater({ type: "usage", usage, ...spender }));
    if (this.store && options.checkpoints !== false) {
      removeOrphanCheckpoints(options.inkHome, this.sessionId);
      this.checkpoints = new CheckpointStore({ inkHome: options.inkHome, sessionId: this.sessionId, cwd: this.cwd, ...(typeof options.checkpoints === "object" ? options.checkpoints : {}) });
      this.onToolCall = withCheckpoints(this.onToolCall, () => this.checkpoints, this.cwd, (message) => this.emitMain({ type: "warning", source: "session", message }));
    }
    if (loaded) {
      // The last /model and permission mode of a resumed session, unless given again now.
      const modeGiven = options.approval.mode !== undefined || options.approval.yolo === true;
      const restored = restoredSettings({ settings: loaded.settings, savedProvider: loaded.header.provider, provider: this.provider, modelGiven: options.modelGiven ?? false, modeGiven });
      if (restored.model) this.model = restored.model;
      if (restored.mode) this.policy.mode = restored.mode;
      this.notes.resume.push(...restored.notes);
    }
    const unpriced = unpricedTreeBudgetNotice(rules, this.model);
    if (unpriced) this.notes.budget.push(unpriced);
    const compaction = { provider: this.provider, tools: () => this.tools, hooks: this.hooks };
    this.tools = buildSessionTools({
      options,
      envPassthrough: rules.settings.effective.envPassthrough,
      bashEnv: () => this.hooks.bashEnv(),
      sandboxSettings: (this.sandboxSettings = rules.settings.effective.sandbox),
      yolo: () => this.policy.mode === "yolo",
      profiles: this.profiles,
      skills: this.skills,
      model: () => this.model,
      system: () => this.system,
      store: this.store,
      sessionId: this.sessionId,
      onToolCall: this.onToolCall,
      compaction: ({ system, model, record, emit }) => sessionCompactor(compaction, system, model, record, emit),
      subagentHooks: () => this.hooks.subagent,
      running: this.running,
      children: this.children,
      editClaims: this.editClaims,
      treeBudget: this.treeBudget,
    });
    if (this.store) this.tools.push(createMergeBranchesTool({ list: () => this.mergeCandidates(), merge: (pick, o) => this.mergeBranches(pick, o) }));
    this.system = buildSystemPrompt({ cwd: this.cwd, tools: this.tools, agentList: formatProfileList(this.profiles.profiles), skillList: formatSkillList(modelSkills(this.skills.skills)), projectContext: this.context.text });
    this.mainCompactor = sessionCompactor(compaction, this.system, this.model, (entry) => this.file?.record({ type: "compaction", ...entry }), (event) => this.emitMain(event));
  }

  /**
   * The one entry for a front end: does what `op` asks (see src/protocol/ops.ts) and returns what
   * it gives (OpResults: quick ops at once, runs as a promise). The events of a run it starts go to
   * `opts.onEvent`; the session's own channel is `subscribe`. Throws when the op cannot be done.
   */
  submit<T extends OpType>(op: Extract<Op, { type: T }>, opts: SubmitOptions = {}): OpResults[T] {
    return dispatchOp(this, this.submitted, this.answerers, op, opts) as OpResults[T];
  }

  /**
   * The session's own channel (SessionClient): the notices so far as `notice` events at once, then
   * background children's events and deliveries, each later notice, and a `spend` event for each
   * addition to the usage ledger. Returns the unsubscribe function.
   */
  override subscribe(listener: (event: AgentEvent) => void): () => void {
    for (const text of this.notices) listener({ type: "notice", text });
    const offs = [
      super.subscribe(listener),
      this.notes.listen((text) => listener({ type: "notice", text })),
      this.ledger.subscribe((spender, usage) => listener({ type: "spend", ...spender, usage })),
    ];
    return () => {
      for (const off of offs) off();
    };
  }

  /** Sets who answers approval questions by request id (`approve` / `deny` ops); undefined: nobody here. */
  setApprovalAnswerer(answer: Answerers["approval"]): void {
    this.answerers.approval = answer;
  }

  /** The session's set-up that notices and report lines are drawn from. */
  private get noticeSources(): NoticeSources {
    return { profiles: this.profiles, skills: this.skills, commands: this.commands, hooks: this.hooks, context: this.context, hasBash: this.tools.some((t) => t.name === "bash"), sandbox: this.sandboxSettings };
  }

  /** Notices for the person: skipped/malformed profiles, trust, MCP problems, leftover worktrees. */
  get notices(): string[] {
    return this.notes.list(this.noticeSources);
  }

  /** Lines for `/mcp`, `/skills`, `/context` (or `/memory`, Claude Code's name), `/config` and `/tasks`; undefined for another command. */
  commandLines(command: string): string[] | undefined {
    return sessionCommandLines(command, { ...this.noticeSources, mcp: this.mcp, children: this.children, inkHome: this.options.inkHome, cwd: this.cwd, trusted: this.trusted });
  }

  /** `/model`'s listing: the model now and the ones the provider serves. */
  listModels(): Promise<string[]> {
    return modelListing(this.provider, this.model);
  }

  /**
   * Subscribes to notices that arise after start-up (an MCP server that failed to start, crashed
   * or timed out), each reported once; ones no listener heard yet are delivered at once. Returns
   * the unsubscribe function. They are also in `notices`.
   */
  onNotice(listener: (text: string) => void): () => void {
    return this.notes.subscribe(listener);
  }

  /** Starts the MCP servers in the background (idempotent); resolves when each is ready or failed. Never rejects. */
  startMcp(): Promise<void> {
    return this.mcp.start();
  }

  /** The permission mode in force (shown in the status bar). */
  get permissionMode(): PermissionMode {
    return this.policy.mode;
  }

  /** True when settings disable yolo (disableBypassPermissionsMode: "disable"). */
  get yoloDisabled(): boolean {
    return this.policy.noBypass === true;
  }

  /** Switches the permission mode for every later call, children included (Alt-M in the TUI); saved in the session. */
  setPermissionMode(mode: PermissionMode): void {
    // Settings' disableBypassPermissionsMode: "disable" — yolo is not a mode this session can take.
    if (mode === "yolo" && this.policy.noBypass) mode = "default";
    this.policy.mode = mode;
    this.file?.recordLater({ type: "settings", permissionMode: mode });
  }

  /** Saves a line the person saw in the transcript (a command's output, a notice) so a resumed session shows it; never sent to the model. */
  note(text: string, tone: NoteTone = "info"): void {
    this.file?.recordLater({ type: "note", text, tone });
  }

  /**
   * Who answers when a budget is reached (a child's own or the session tree's): the TUI sets its
   * question here; undefined (the default, and headless) stops the agent instead. See budget.ts.
   */
  setBudgetAsk(ask: AskBudget | undefined, answer?: Answerers["budget"]): void {
    this.treeBudget.ask = ask;
    this.answerers.budget = ask ? answer : undefined;
  }

  /** Sends `text` to the main agent while a prompt runs: it reads it at its next turn boundary. False when no prompt runs. */
  steer(text: string): boolean {
    return this.inbox.push(text, "user");
  }

  /** Reports of children resumed by the person that the next `prompt` will pass to the main agent. */
  get pendingChildReports(): readonly ChildReportNote[] {
    return this.pending.reports;
  }

  /** Creates the session file now, before any prompt (ACP: an editor may load a session it created but never prompted). */
  createFile(): void {
    this.file?.record(undefined);
  }

  /** Path of the main session file once the first prompt created it (a resumed one's at once). */
  get sessionPath(): string | undefined {
    return this.file?.path;
  }

  /** True while the session is kept in memory only (its file cannot be written, or writing stopped). */
  get unsaved(): boolean {
    return this.file?.unsaved ?? false;
  }

  /**
   * Makes sure the session file holds everything said so far: a session kept in memory (its file
   * could not be written) tries to save it all now. Returns undefined when the file is complete,
   * else why it is not (the first write failure, or why writing stopped).
   */
  saveNow(): string | undefined {
    return this.file?.saveNow();
  }

  /** Summarises older history now (`/compact`). Resolves false when there was too little to compact. */
  async compact(signal?: AbortSignal, onEvent?: (e: AgentEvent) => void): Promise<boolean> {
    this.emitMain = (event) => onEvent?.(event);
    return this.mainCompactor.compactNow(this.history, signal);
  }

  /**
   * Resumes child session `childId` with `prompt` on the person's request (sidebar), through the
   * same task tool the model uses: the same checks, lock, live events (as a `task` tool call with
   * id `toolCallId`) and result. The run is recorded in this session's file as a task record.
   * The main agent's history is not changed now: the run's report is queued and passed to the main
   * agent as a note before the next user message (see `prompt`). Never throws: failures come back as an error result.
   */
  async resumeChild(childId: string, prompt: string, opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void; toolCallId?: string } = {}): Promise<ToolResult> {
    return runPersonTaskRun(this.personRuns, { prompt, resume: childId }, opts.toolCallId ?? `resume-${childId}-${Date.now()}`, opts);
  }

  /**
   * Runs a forked slash command (`command`, e.g. "/review") as a new child with `prompt` — the
   * `agent` profile, or the general-purpose subagent — the way `resumeChild` runs a resume: live as
   * a `task` call with id `toolCallId`, recorded, its report passed on before the next user message. Never throws.
   */
  async runCommandChild(command: string, prompt: string, opts: { agent?: string; signal?: AbortSignal; onEvent?: (e: AgentEvent) => void; toolCallId?: string } = {}): Promise<ToolResult> {
    return runPersonTaskRun(this.personRuns, { prompt, ...(opts.agent ? { agent: opts.agent } : {}) }, opts.toolCallId ?? `command-${Date.now()}`, opts, command);
  }

  /** The command file `text` names (`/name args`), or undefined (not a command, or a built-in, or no such file). */
  commandInvocation(text: string): CommandInvocation | undefined {
    return findCommandInvocation(text, this.invocableCommands);
  }

  /** What the person may run with `/name`: the command files, then the skills (`/skill-name`) whose names are free. */
  get invocableCommands(): FileCommand[] {
    return [...this.commands.commands, ...skillCommands(this.skills.skills, this.commands.commands)];
  }

  /**
   * Runs a command file as the TUI, `-p` and ACP all do: its arguments substituted, each
   * `` !`cmd` `` run as a main-agent `bash` call through the session's approval check (its output
   * replaces it), then the prompt as a main turn (on the file's `model:` when the provider serves it,
   * else a warning) or, for `context: fork` / `agent:`, as a child (see runCommandChild). Rejects as `prompt` does.
   */
  async runCommandFile(invocation: CommandInvocation, opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void; toolCallId?: string } = {}): Promise<{ kind: "prompt"; result: LoopResult } | { kind: "child"; result: ToolResult }> {
    const { command, args } = invocation;
    const emit = (event: AgentEvent) => opts.onEvent?.(event);
    const prompt = await expandCommandWithContext(command, args, async (cmd) => (await runShellCommand({ command: cmd, tools: this.tools, cwd: this.cwd, agent: MAIN_AGENT, onToolCall: this.onToolCall, signal: opts.signal, emit })).note);
    if (command.fork) return { kind: "child", result: await this.runCommandChild(command.name, prompt, { ...opts, agent: command.agent }) };
    const { model, warning } = commandModel(command, this.provider, this.model);
    if (warning) emit({ type: "warning", source: "command", message: warning });
    return { kind: "prompt", result: await this.prompt(prompt, { signal: opts.signal, onEvent: opts.onEvent, ...(model ? { model } : {}) }) };
  }

  /** Runs the command file `text` names (see runCommandFile); throws when it names none. */
  async runCommandText(text: string, opts: SubmitOptions = {}): Promise<CommandRun> {
    const invocation = this.commandInvocation(text);
    if (!invocation) throw new Error(`"${text.split(/\s/)[0]}" is not a command file or skill of this session`);
    return this.runCommandFile(invocation, opts);
  }

  /** What the person's own runs (`!`, resumes, forked commands) use of this session. */
  private get personRuns(): PersonRunDeps {
    return { tools: this.tools, cwd: this.cwd, pending: this.pending, personal: this.policy.personal, stopChild: (id) => this.stopChild(id), file: this.file };
  }

  /**
   * Runs one user request to the end (on `opts.model` for this request only, e.g. a command file's `model:`). Reports of children the person resumed since the last
   * request go first, as notes in the same user message. Rejects with the provider's error when a
   * model call fails.
   */
  async prompt(text: string, opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void; model?: string } = {}): Promise<LoopResult> {
    this.file?.record(undefined, opts.onEvent, text);
    this.emitMain = (event) => opts.onEvent?.(event);
    const message = await promptMessage(text, { hooks: this.hooks, resumed: this.options.resume !== undefined, cwd: this.cwd, ...opts });
    if (message === undefined) return { reason: "done", turns: 0, usage: emptyUsage() };
    const { message: userMessage, taken } = this.pending.take(message);
    await this.beginCheckpointTurn(text);
    this.lastFailure = undefined;
    this.treeBudget.newRun(); // a "stop" answered in the last run does not hold for this one
    const run = () => this.inbox.during(() => this.runPrompt(userMessage, opts), opts.onEvent);
    return withdrawOnFailure(this.history, text, userMessage, opts.signal, run, (failure) => {
      this.lastFailure = failure;
      if (!failure.withdrawn) return;
      this.pending.putBack(taken); // they go with the next prompt instead
      this.file?.record({ type: "status", status: PROMPT_FAILED_STATUS, reason: failure.reason }, opts.onEvent);
    });
  }

  /**
   * Runs a command the person typed after `!`, as a bash call of the main agent with the same
   * process handling as the model's calls. It is not put to the person again: only a deny rule
   * refuses it (the reason names the rule and its file). Its output goes to the model with the
   * next prompt (and is saved, so a resumed session shows it and still passes it on). Resolves
   * with what the tool returned.
   */
  async runShell(command: string, opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void } = {}): Promise<ToolResult> {
    return runPersonShell(this.personRuns, command, opts);
  }

  /** Commands run with `!` whose output the next prompt will carry. */
  get pendingShellCommands(): readonly ShellNote[] {
    return this.pending.shell;
  }

  /**
   * Starts a main turn for the background reports waiting (the main agent was idle when they
   * arrived): they are its user message, and a `background_delivery` event (startsTurn) says why
   * the turn began. Resolves undefined when nothing waits (another run took them meanwhile).
   */
  async deliverBackground(opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void } = {}): Promise<LoopResult | undefined> {
    const [note] = takeDeliveries(this.children, true);
    if (!note) return undefined;
    this.file?.record(undefined, opts.onEvent, "(background reports)");
    await this.beginCheckpointTurn("(background reports)");
    opts.onEvent?.(note.event!);
    this.emitMain = (event) => opts.onEvent?.(event);
    this.lastFailure = undefined;
    return this.runPrompt(note.content, opts);
  }

  /** Counts a new main turn in the checkpoint store (where a rewind cuts the conversation). */
  private async beginCheckpointTurn(prompt: string): Promise<void> {
    try {
      await this.checkpoints?.beginTurn({ historyLength: this.history.length, head: historyHead(this.history), prompt });
    } catch (err) {
      this.emitMain({ type: "warning", source: "session", message: `checkpoint store: ${(err as Error).message}` });
    }
  }

  /** The checkpoint store's bound (the last `maxTurns` turns, at most `maxBytes`); undefined when there is no store. */
  get checkpointBound(): CheckpointBound | undefined {
    return this.checkpoints ? { maxTurns: this.checkpoints.maxTurns, maxBytes: this.checkpoints.maxBytes } : undefined;
  }

  /** The main turns kept in the checkpoint store, oldest first, with the files each changed and by whom (`/rewind`). */
  async rewindTurns(): Promise<TurnSummary[]> {
    await this.checkpoints?.settle();
    return this.checkpoints?.turns() ?? [];
  }

  /**
   * Takes the files agents changed, the conversation, or both, back to just before main turn
   * `turn` (see checkpoints/rewind.ts). Call while no prompt runs. Never throws.
   */
  async rewind(turn: number, opts: RewindOptions = {}): Promise<RewindResult> {
    const none = { restored: [], changedSince: [], children: [] };
    if (!this.checkpoints) return { ok: false, message: "this session keeps no checkpoints (sessions are not saved)", ...none };
    if (this.mainRuns > 0) return { ok: false, message: "the main agent is working; stop its turn (Esc) before rewinding", ...none };
    try {
      return await rewindTo(
        {
          store: this.checkpoints,
          history: this.history,
          recordCut: (keep, t) => this.file?.record({ type: "rewind", keep, turn: t }),
          runningChildren: () => this.runningChildren,
          stopChildren: async (ids) => {
            // The children stopped for a rewind report nothing to the main agent: their reports
            // would start a turn of their own (the main agent is idle) that acts on work the
            // rewind takes back. Counted as a main run meanwhile, so no such turn starts.
            this.mainRuns++;
            try {
              for (const id of ids) this.stopChild(id);
              for (let i = 0; i < 500 && ids.some((id) => this.runningChildren.includes(id)); i++) await new Promise((r) => setTimeout(r, 20));
              this.children.take(ids);
            } finally {
              this.mainRunEnded();
            }
          },
        },
        turn,
        opts,
      );
    } catch (err) {
      return { ok: false, message: `rewind failed: ${(err as Error).message}`, ...none };
    }
  }

  /** This session's kept worktree branches (that still exist), with diffstat, shared files and whether each applies cleanly to HEAD (`/merge`). */
  async mergeCandidates(): Promise<BranchState[]> {
    return inspectQueue(this.cwd, keptBranches(sessionRecords(this.sessionPath, this.taskRecords), this.history.flatMap((m) => (m.role === "assistant" ? toolCallsOf(m).map((c) => c.id) : []))));
  }

  /**
   * Merges kept branches into the current branch, in the order given (`pick`: branch names or
   * 1-based positions in `mergeCandidates`, or "all"); see merge/merge-queue.ts. Never throws.
   */
  async mergeBranches(pick: "all" | ReadonlyArray<number | string>, opts: { squash?: boolean; allowDirty?: boolean } = {}): Promise<MergeOutcome> {
    try {
      const states = await this.mergeCandidates();
      const chosen: BranchState[] = [];
      for (const p of pick === "all" ? states.map((_, i) => i + 1) : pick) {
        const s = typeof p === "number" ? states[p - 1] : states.find((x) => x.branch === p);
        if (!s) return { ok: false, merged: [], leftovers: [], error: `no kept branch ${typeof p === "number" ? `number ${p}` : `"${p}"`} (${states.length === 0 ? "this session has none" : `there are: ${states.map((x, i) => `${i + 1}. ${x.branch}`).join(", ")}`})` };
        chosen.push(s);
      }
      if (chosen.length === 0) return { ok: false, merged: [], leftovers: [], error: "this session has no kept worktree branch to merge" };
      const outcome = await mergeQueue(this.cwd, chosen, opts);
      this.mergeStop = outcome.conflict ? { conflict: outcome.conflict, rest: (outcome.remaining ?? []).map((b) => b.branch), opts } : undefined;
      return outcome;
    } catch (err) {
      return { ok: false, merged: [], leftovers: [], error: (err as Error).message };
    }
  }

  /** The conflict the last merge stopped at, while it is not handed on or merged (`/merge hand`). */
  get mergeConflict(): MergeConflict | undefined {
    return this.mergeStop?.conflict;
  }
  private mergeStop?: { conflict: MergeConflict; rest: string[]; opts: { squash?: boolean; allowDirty?: boolean } };

  /**
   * Hands the conflict the last merge stopped at to the branch's own child: resumes it in its
   * worktree with the conflict as its prompt (live, as a `task` call, like `resumeChild`), then —
   * when it ended well — goes on merging that branch and the ones after it, in order. Never throws.
   */
  async handMergeConflict(opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void; toolCallId?: string } = {}): Promise<{ handed?: ToolResult; outcome: MergeOutcome }> {
    const fail = (error: string) => ({ outcome: { ok: false, merged: [], leftovers: [], error } });
    const stop = this.mergeStop;
    if (!stop) return fail("no merge stopped at a conflict in this session (/merge stops at the first one)");
    const c = stop.conflict;
    if (!c.childId) return fail(`${c.branch} has no child to hand its conflict to: resolve it in ${c.worktree ?? "its branch"} and /merge again`);
    const handed = await this.resumeChild(c.childId, conflictPrompt(c), { ...opts, toolCallId: opts.toolCallId ?? `merge-hand-${c.childId}-${Date.now()}` });
    if (handed.isError) return { handed, outcome: { ok: false, merged: [], leftovers: [], error: `${c.title ?? c.branch} [${c.childId}] did not resolve the conflict: ${handed.content.split("\n")[0]}` } };
    return { handed, outcome: await this.mergeBranches([c.branch, ...stop.rest], stop.opts) };
  }

  /**
   * Switches the model of the next turns (main, and children without a model of their own); saved
   * in the session. An alias (`opus`, …) becomes the newest of its line the provider lists. Throws
   * when the provider does not serve it; returns a warning when its model list lacks it.
   */
  setModel(model: string): string | undefined {
    const name = resolveModelAlias(model.trim(), this.provider.modelCatalog?.()?.models);
    if (name === "") throw new Error("give a model name, e.g. /model claude-sonnet-4-5");
    if (this.provider.ownsModel && !this.provider.ownsModel(name)) throw new Error(`the ${this.provider.name} provider does not serve model "${name}"`);
    this.model = name;
    this.file?.recordLater({ type: "settings", model: name });
    return unservedModelWarning(name, this.provider.modelCatalog?.(), this.provider.name);
  }

  /** Runs the loop for `userMessage`; a Stop hook may send the agent back to work (src/hooks/session-hooks.ts). */
  private async runPrompt(userMessage: string, opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void; model?: string }): Promise<LoopResult> {
    this.mainRuns++;
    try {
      return await runMainPrompt(() => this.mainRunDeps(opts), this.hooks, userMessage, opts);
    } finally {
      // The checkpoint store's bound holds between turns too (a turn's snapshots may pass it),
      // not only from the next turn's start on.
      await this.checkpoints?.enforceBound().catch((err: unknown) => this.emitMain({ type: "warning", source: "session", message: `checkpoint store: ${(err as Error).message}` }));
      this.mainRunEnded();
    }
  }

  /** What one main loop reads and writes (see main-run.ts), afresh for every loop. */
  private mainRunDeps(opts: { signal?: AbortSignal; model?: string }): MainRunDeps {
    return {
      provider: this.provider,
      model: opts.model ?? this.model,
      system: this.system,
      // The main agent may change a file a running child changed; its result then warns (edit-claims.ts).
      tools: this.editClaims.warnMain(this.tools),
      history: this.history,
      cwd: this.cwd,
      thinking: this.options.thinking,
      signals: [opts.signal, this.file?.leaseLost.signal],
      onToolCall: this.onToolCall,
      treeBudget: this.treeBudget,
      compactor: this.mainCompactor,
      // Messages for the main agent (`steer`) and background children's reports enter at each turn boundary, once each.
      takeMessages: () => [...this.inbox.take(), ...takeDeliveries(this.children)],
      record: (entry, onEvent) => this.file?.record(entry, onEvent),
    };
  }

  /**
   * Runs the SessionEnd hooks (call before `close` when the person ends the session), once: a
   * later call does nothing. `signal` stops them early (a signal exit). Never rejects.
   */
  async end(reason: "clear" | "logout" | "prompt_input_exit" | "other" = "other", opts: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.hooks.end(reason, opts.signal);
  }

  /**
   * Releases the session's single-writer lock. Call when the session is done. A session kept in
   * memory (its file could not be written) tries once more to save everything first.
   */
  close(): void {
    this.children.abortAll();
    this.mcp.killAll();
    void this.mcp.close();
    this.hooks.dispose();
    this.file?.close();
  }
}
