/**
 * AgentSession: one conversation with the main agent, assembled the same way for every mode
 * (print mode, TUI): provider, tools + task tool, the project set-up (project-setup.ts: trust, profiles,
 * MCP servers, context), settings' rules, system prompt, approval, and the session file that records
 * every message and task record as it happens.
 */
import { resolve } from "node:path";
import { createApprovalPolicy, type ApprovalOptions, type ApprovalPolicy } from "./core/approval.js";
import type { PermissionMode } from "./permissions/decide.js";
import { checkSettingsRules } from "./permissions/settings-rules.js";
import { loadSettings } from "./settings/settings.js";
import { createCompactor, type CompactionEntry, type Compactor } from "./core/compaction.js";
import type { AgentEvent } from "./protocol/events.js";
import { runAgentLoop, type LoopResult } from "./core/loop.js";
import type { AgentMessage, ToolResult, Usage } from "./protocol/messages.js";
import { buildSystemPrompt } from "./core/system-prompt.js";
import type { OnToolCall } from "./core/tool-runner.js";
import type { Provider, ThinkingConfig } from "./protocol/provider.js";
import { fingerprint } from "./session/fingerprint.js";
import { newSessionId } from "./session/ids.js";
import { MainSessionFile } from "./session/main-session-file.js";
import { SessionStore } from "./session/store.js";
import type { NoteTone, SessionEntryInput, ViewEntry } from "./session/types.js";
import { restoredSettings } from "./core/restore-settings.js";
import { createTaskTool, type TaskDetails } from "./subagents/task-tool.js";
import { refusedTaskRecord } from "./subagents/task-refusals.js";
import { createTaskResultTool } from "./subagents/task-result-tool.js";
import { messageChild, stopChild, wakeChild, type RunningChildren } from "./subagents/running-children.js";
import { EditClaims } from "./subagents/edit-claims.js";
import { toToolSpec } from "./tools/spec.js";
import { builtinTools } from "./tools/index.js";
import type { AnyTool } from "./protocol/tool.js";
import { errorMessage } from "./protocol/error-message.js";
import { bashSandbox } from "./tools/sandbox.js";
import { LateNotices } from "./mcp/late-notices.js";
import { McpManager } from "./mcp/manager.js";
import { settingsReportLines } from "./cli/config-command.js";
import type { ChildReportNote } from "./protocol/child-report-note.js";
import { PendingNotes } from "./core/pending-notes.js";
import type { TaskRecord } from "./session/types.js";
import { isAbortError } from "./protocol/provider-error.js";
import { PROMPT_FAILED_STATUS, withdrawFailedPrompt, type FailedPrompt } from "./core/failed-turn.js";
import { expandMentions } from "./context/mentions.js";
import { runShellCommand, type ShellNote } from "./core/shell-command.js";
import { MAIN_AGENT } from "./core/loop.js";
import { recordProjectTrust } from "./subagents/trust.js";
import { formatProfileList, ROSTER_MAX_AGENTS, type ProfileLoad } from "./subagents/profiles.js";
import { createAgentSearchTool } from "./subagents/agent-search-tool.js";
import { describeProjectContext, type ProjectContext } from "./context/project-context.js";
import type { McpServerConfig } from "./mcp/config.js";
import { loadProjectSetup } from "./project-setup.js";
import { createSkillTool, describeSkills, formatSkillList } from "./skills/skill-tool.js";
import type { SkillLoad } from "./skills/skills.js";
import type { CommandLoad } from "./commands/command-files.js";
import { runPersonTask } from "./subagents/person-resume.js";
import { MainInbox } from "./core/main-inbox.js";
import { runWithStopHook, SessionHooks, stopFeedback } from "./hooks/session-hooks.js";
import { withToolHooks } from "./hooks/tool-hooks.js";
import { emptyUsage, finalAssistantText } from "./protocol/messages.js";
import { BackgroundChildren, type ChildRow } from "./subagents/background-children.js";
import { createTaskWaitTool, formatChildRows, takeDeliveries } from "./subagents/task-wait-tool.js";
import { TreeBudget } from "./subagents/tree-budget.js";
import { treeLimits, unpricedCostBudget, type AskBudget } from "./subagents/budget.js";

export interface AgentSessionOptions {
  cwd: string;
  inkHome: string;
  provider: Provider;
  model: string;
  /** Interactive sessions have no default child timeout; headless ones do. */
  interactive: boolean;
  /** `--trust`: load and trust the project's profiles. */
  trust?: boolean;
  approval: ApprovalOptions;
  /** Default child timeout for headless runs (ms); default 10 minutes. */
  taskTimeoutMs?: number;
  /** How long a child may stay paused on transient failures in all (default 30 min). */
  childPauseLimitMs?: number;
  maxConcurrentChildren?: number;
  thinking?: ThinkingConfig;
  /** Persist sessions (default true). */
  persist?: boolean;
  /** Reopen this main session (its history continues; new entries are appended to its file). */
  resume?: string;
  /** `--take-over-lock`: take over a resumed session's lock held on another host. */
  takeOverLock?: boolean;
  /** How often the session renews its lock (ms; default 10 s). */
  leaseIntervalMs?: number;
  /** MCP servers to use instead of the ones from settings.json / a trusted .mcp.json (tests). */
  mcpServers?: McpServerConfig[];
  /** MCP servers started besides the configured ones (an ACP client's, `ink --acp`). */
  extraMcpServers?: McpServerConfig[];
  /** `model` was named on the command line: a resumed session does not go back to its last /model choice. */
  modelGiven?: boolean;
}

const HEADLESS_TASK_TIMEOUT_MS = 10 * 60_000;

export class AgentSession {
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
  private readonly running: RunningChildren = new Map();
  /** Files the running children changed (edit conflicts) and the kept worktree branches. */
  private readonly editClaims = new EditClaims();
  /** Messages for the main agent while a prompt runs (`steer`). */
  private readonly inbox = new MainInbox();
  /** Children beside the main agent: background runs, their reports until delivered, the session's event channel. */
  private readonly children: BackgroundChildren;
  /** Main-agent runs going on now (a finished background child starts a turn only when none is). */
  private mainRuns = 0;
  private readonly mainCompactor: Compactor;
  /** Where the main agent's compaction events go during a prompt. */
  private emitMain: (event: AgentEvent) => void = () => undefined;
  /** Id of the main session file (created on the first prompt, or the resumed one). */
  readonly sessionId: string;
  /** Notes from repairing a resumed session's file. */
  private readonly resumeNotes: string[] = [];
  /** The session's MCP servers; started by `startMcp()` (after the first frame), never by the constructor. */
  readonly mcp: McpManager;
  private readonly mcpNotices: string[] = [];
  /** Problems that arise after start-up (a failed MCP server); see `onNotice`. */
  private readonly lateNotices = new LateNotices();
  /** AGENTS.md / CLAUDE.md files in the system prompt (`/context`). */
  readonly context: ProjectContext;
  private readonly trusted: boolean;
  /** Task records of a resumed session's file, in file order (children shown as summaries). */
  readonly taskRecords: TaskRecord[] = [];
  /** Notes and `!` commands of a resumed session's file, placed among `history` (the transcript shows them). */
  readonly view: ViewEntry[] = [];
  /** Usage of a resumed session's turns that compactions took out of `history` (by model; the totals still count them). */
  readonly compactedUsage: Array<{ model?: string; usage: Usage }> = [];
  /** Children's reports and `!` commands waiting for the next user message. */
  private readonly pending = new PendingNotes();
  /** SessionEnd has run (it runs once). */
  private ended = false;
  /** Worktrees of this repository left by runs that ended (found at start, from owner records). */
  private readonly worktreeNotice?: string;
  /** The hooks of settings.json (and, trusted, the project's settings files). */
  private readonly hooks: SessionHooks;
  /** The last prompt whose request failed for good (see core/failed-turn.ts); cleared by the next prompt. */
  lastFailure?: FailedPrompt;
  /** The session tree's budget (settings maxTokens / maxCostUsd): every agent's spend, and its question when reached. */
  readonly treeBudget: TreeBudget;
  private readonly budgetNotices: string[] = [];

  constructor(private readonly options: AgentSessionOptions) {
    this.cwd = resolve(options.cwd);
    this.provider = options.provider;
    this.model = options.model;
    const setup = loadProjectSetup({ inkHome: options.inkHome, cwd: this.cwd, trustFlag: options.trust ?? false, mcpServers: options.mcpServers, extraMcpServers: options.extraMcpServers });
    this.profiles = setup.profiles;
    this.skills = setup.skills;
    this.commands = setup.commands;
    this.trusted = setup.trusted;
    this.mcpNotices.push(...setup.mcp.problems);
    const onProblem = (m: string) => {
      this.mcpNotices.push(m);
      this.lateNotices.publish(m);
    };
    this.mcp = new McpManager(setup.mcp.servers, { onChange: () => this.syncTools(), onProblem });
    this.context = setup.context;
    this.worktreeNotice = setup.worktreeNotice;
    this.store = options.persist === false ? undefined : new SessionStore(options.inkHome);
    this.sessionId = options.resume ?? newSessionId();
    this.children = new BackgroundChildren({
      isMainIdle: () => this.mainRuns === 0,
      onFinished: (report, details) => {
        const record = (details as TaskDetails | undefined)?.taskRecord;
        if (record) this.file?.recordLater({ type: "task_record", record });
        this.file?.recordLater({ type: "background_report", report });
      },
      onDelivered: (childIds) => this.file?.recordLater({ type: "background_delivered", childIds }),
    });
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
      this.compactedUsage.push(...loaded.compactedUsage);
      this.pending.shell.push(...loaded.pendingShell);
      this.children.restore(loaded.pendingBackground);
      this.resumeNotes = loaded.notes;
    }
    if (options.trust) {
      try {
        recordProjectTrust(options.inkHome, this.cwd);
      } catch {
        // loadProfiles reports an unwritable trust store
      }
    }
    const settings = loadSettings({ inkHome: options.inkHome, projectDir: this.cwd, trusted: this.trusted });
    checkSettingsRules(settings.scopes);
    const rules = settings.effective.permissions;
    const ruleFiles = settings.scopes.map((s) => ({ path: s.path, rules: s.settings.permissions }));
    const report = (message: string) => this.emitMain({ type: "warning", source: "hook", message });
    this.hooks = SessionHooks.load({ inkHome: options.inkHome, trusted: this.trusted, sessionId: this.sessionId, cwd: this.cwd, transcriptPath: () => this.file?.path, permissionMode: () => this.policy.mode, report, envPassthrough: settings.effective.envPassthrough });
    this.policy = createApprovalPolicy({ ...options.approval, ask: this.hooks.notifying(options.approval.ask), cwd: this.cwd, rules, ruleFiles, mode: options.approval.mode ?? rules?.defaultMode });
    this.onToolCall = withToolHooks(this.policy, this.hooks.hooks);
    if (loaded) {
      const modeGiven = options.approval.mode !== undefined || options.approval.yolo === true;
      const restored = restoredSettings({ settings: loaded.settings, savedProvider: loaded.header.provider, provider: this.provider, modelGiven: options.modelGiven ?? false, modeGiven });
      if (restored.model) this.model = restored.model;
      if (restored.mode) this.policy.mode = restored.mode;
      this.resumeNotes.push(...restored.notes);
    }
    this.treeBudget = new TreeBudget(treeLimits(settings.effective));
    const unpriced = unpricedCostBudget(this.treeBudget.meter.limits, this.model, `settings (${settings.sources.maxCostUsd})`);
    if (unpriced) this.budgetNotices.push(`${unpriced}; only priced usage counts toward it`);
    this.tools = builtinTools({ envPassthrough: settings.effective.envPassthrough });
    // Only with skills: a pool without them stays as before (children made earlier still resume).
    if (this.skills.skills.length > 0) this.tools.push(createSkillTool(this.skills.skills));
    const session = this;
    const task = createTaskTool({
      provider: this.provider,
      // Read at call time: children follow a /model switch.
      get model() {
        return session.model;
      },
      getSystem: () => this.system,
      getTools: () => this.tools,
      profiles: this.profiles.profiles,
      untrustedProfileFiles: this.profiles.untrustedProjectFiles,
      store: this.store,
      parentSessionId: this.sessionId,
      inkHome: options.inkHome,
      onToolCall: this.onToolCall,
      compaction: ({ system, model, record, emit }) => this.compactorFor(system, model, record, emit),
      defaultTimeoutMs: options.interactive ? undefined : (options.taskTimeoutMs ?? HEADLESS_TASK_TIMEOUT_MS),
      maxConcurrent: options.maxConcurrentChildren,
      pauseLimitMs: options.childPauseLimitMs,
      thinking: options.thinking,
      running: this.running,
      subagentHooks: () => this.hooks.subagent,
      children: this.children,
      editClaims: this.editClaims,
      treeBudget: this.treeBudget,
      askBudget: () => this.treeBudget.ask,
    });
    this.tools.push(createTaskWaitTool(this.children), task);
    if (this.store) this.tools.push(createTaskResultTool({ store: this.store, parentSessionId: this.sessionId, running: this.running }));
    // A roster too long for the system prompt can be searched (children never see it: they cannot delegate).
    if (this.profiles.profiles.length > ROSTER_MAX_AGENTS) this.tools.push(createAgentSearchTool(this.profiles.profiles));
    this.system = buildSystemPrompt({ cwd: this.cwd, tools: this.tools, agentList: formatProfileList(this.profiles.profiles), skillList: formatSkillList(this.skills.skills), projectContext: this.context.text });
    this.mainCompactor = this.compactorFor(
      this.system,
      this.model,
      (entry) => this.record({ type: "compaction", ...entry }),
      (event) => this.emitMain(event),
    );
  }

  /** Notices for the person: skipped/malformed profiles, trust, MCP problems, leftover worktrees. */
  get notices(): string[] {
    return [...this.profiles.notices, ...this.profiles.problems.map((p) => `agent profile ${p.path} skipped: ${p.reason}`), ...this.skills.notices, ...this.skills.problems.map((p) => `skill ${p.path} skipped: ${p.reason}`), ...this.commands.notices, ...this.commands.problems.map((p) => `command file ${p.path} skipped: ${p.reason}`), ...this.hooks.problems, ...this.context.notes, ...this.resumeNotes, ...this.mcpNotices, ...(this.worktreeNotice ? [this.worktreeNotice] : []), ...this.budgetNotices, ...(this.tools.some((t) => t.name === "bash") ? [bashSandbox().summary] : [])];
  }

  /** Lines for `/mcp`, `/skills`, `/context` (or `/memory`, Claude Code's name), `/config` and `/tasks`; undefined for another command. */
  commandLines(command: string): string[] | undefined {
    if (command === "/mcp") return this.mcp.describe();
    if (command === "/skills") return describeSkills(this.skills);
    if (command === "/context" || command === "/memory") return [...describeProjectContext(this.context), ...this.hooks.describe()];
    if (command === "/config") return settingsReportLines(this.options.inkHome, this.cwd, this.trusted);
    if (command === "/tasks") return formatChildRows(this.children.list(), Date.now());
    return undefined;
  }

  /**
   * Subscribes to notices that arise after start-up (an MCP server that failed to start, crashed
   * or timed out), each reported once; ones no listener heard yet are delivered at once. Returns
   * the unsubscribe function. They are also in `notices`.
   */
  onNotice(listener: (text: string) => void): () => void {
    return this.lateNotices.subscribe(listener);
  }

  /** Starts the MCP servers in the background (idempotent); resolves when each is ready or failed. Never rejects. */
  startMcp(): Promise<void> {
    return this.mcp.start();
  }

  /** Puts the ready MCP servers' tools into the pool (built-ins, then MCP tools, then `task`), in place. */
  private syncTools(): void {
    const tail = this.tools.filter((t) => t.name === "task_wait" || t.name === "task");
    const rest = this.tools.filter((t) => !tail.includes(t) && !t.name.startsWith("mcp__"));
    this.tools.splice(0, this.tools.length, ...rest, ...this.mcp.tools(), ...tail);
  }

  /** The permission mode in force (shown in the status bar). */
  get permissionMode(): PermissionMode {
    return this.policy.mode;
  }

  /** Switches the permission mode for every later call, children included (Alt-M in the TUI); saved in the session. */
  setPermissionMode(mode: PermissionMode): void {
    this.policy.mode = mode;
    this.file?.recordLater({ type: "settings", permissionMode: mode });
  }

  /** Saves a line the person saw in the transcript (a command's output, a notice) so a resumed session shows it; never sent to the model. */
  note(text: string, tone: NoteTone = "info"): void {
    this.file?.recordLater({ type: "note", text, tone });
  }

  /** Ids of the children running now. */
  get runningChildren(): string[] {
    return [...this.running.keys()];
  }

  /** Stops one running child; the main agent goes on with its "aborted" result. False when it is not running. */
  stopChild(childId: string): boolean {
    return stopChild(this.running, childId);
  }

  /** Sends the person's `text` to running child `childId`: it reads it at its next turn boundary. False when it is not running. */
  /** A paused child (transient failure) tries again now; false when it is not paused. */
  wakeChild(childId: string): boolean {
    return wakeChild(this.running, childId);
  }

  messageChild(childId: string, text: string): boolean {
    return messageChild(this.running, childId, text, "user");
  }

  /**
   * Who answers when a budget is reached (a child's own or the session tree's): the TUI sets its
   * question here; undefined (the default, and headless) stops the agent instead. See budget.ts.
   */
  setBudgetAsk(ask: AskBudget | undefined): void {
    this.treeBudget.ask = ask;
  }

  /** Sends `text` to the main agent while a prompt runs: it reads it at its next turn boundary. False when no prompt runs. */
  steer(text: string): boolean {
    return this.inbox.push(text, "user");
  }

  /** Reports of children resumed by the person that the next `prompt` will pass to the main agent. */
  get pendingChildReports(): readonly ChildReportNote[] {
    return this.pending.reports;
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

  /** Compaction hooks for an agent of this session (main or child) running `system` on `model`. */
  private compactorFor(system: string, model: string, record: (e: CompactionEntry) => void, emit: (e: AgentEvent) => void): Compactor {
    return createCompactor({
      provider: this.provider,
      model,
      system: () => system,
      tools: () => this.tools.map(toToolSpec),
      contextWindow: this.provider.contextWindow(model),
      onCompaction: record,
      onEvent: emit,
      beforeCompact: (reason, signal) => this.hooks.preCompact(reason === "manual", signal),
    });
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
    return this.personTask({ prompt, resume: childId }, opts.toolCallId ?? `resume-${childId}-${Date.now()}`, opts);
  }

  /**
   * Runs a forked slash command (`command`, e.g. "/review") as a new child with `prompt` — the
   * `agent` profile, or the general-purpose subagent — the way `resumeChild` runs a resume: live as
   * a `task` call with id `toolCallId`, recorded, its report passed on before the next user message. Never throws.
   */
  async runCommandChild(command: string, prompt: string, opts: { agent?: string; signal?: AbortSignal; onEvent?: (e: AgentEvent) => void; toolCallId?: string } = {}): Promise<ToolResult> {
    return this.personTask({ prompt, ...(opts.agent ? { agent: opts.agent } : {}) }, opts.toolCallId ?? `command-${Date.now()}`, opts, command);
  }

  /** A `task` run the person started (see person-resume.ts), recorded, with its report queued for the main agent. */
  private personTask(args: { prompt: string; resume?: string; agent?: string }, toolCallId: string, opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void }, command?: string): Promise<ToolResult> {
    const emit = (event: AgentEvent) => opts.onEvent?.(event);
    this.record(undefined, opts.onEvent, args.prompt);
    return runPersonTask({
      task: this.tools.find((t) => t.name === "task")!,
      args,
      cwd: this.cwd,
      stopChild: (id) => this.stopChild(id),
      signal: opts.signal,
      emit,
      toolCallId,
      onRecord: (record, out) => {
        this.record({ type: "task_record", record }, emit);
        this.pending.reports.push({ childId: args.resume ?? record.sessionId ?? record.childId, profile: record.profile, prompt: args.prompt, ...(command ? { command } : {}), status: record.status, report: out.output });
      },
    });
  }

  /**
   * Runs one user request to the end (on `opts.model` for this request only, e.g. a command file's `model:`). Reports of children the person resumed since the last
   * request go first, as notes in the same user message. Rejects with the provider's error when a
   * model call fails.
   */
  async prompt(text: string, opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void; model?: string } = {}): Promise<LoopResult> {
    this.record(undefined, opts.onEvent, text);
    this.emitMain = (event) => opts.onEvent?.(event);
    const gate = await this.hooks.beforePrompt(text, { resumed: this.options.resume !== undefined, signal: opts.signal });
    if (gate.blocked !== undefined) return { reason: "done", turns: 0, usage: emptyUsage() };
    const mentions = expandMentions(text, this.cwd);
    if (mentions.attached.length > 0 || mentions.problems.length > 0) opts.onEvent?.({ type: "attachments", files: mentions.attached, problems: mentions.problems });
    const hookContext = gate.context.length > 0 ? `\n\n[hook context]\n${gate.context.join("\n")}` : "";
    const { message: userMessage, taken } = this.pending.take(mentions.text + hookContext);
    this.lastFailure = undefined;
    this.treeBudget.newRun(); // a "stop" answered in the last run does not hold for this one
    try {
      const result = await this.inbox.during(() => this.runPrompt(userMessage, opts), opts.onEvent);
      // Stopped by the person before the model produced anything: the prompt is taken back (the person gets it
      // back to edit) rather than left unanswered in the history, where the next prompt would join it.
      if (result.reason === "aborted" && opts.signal?.aborted && withdrawFailedPrompt(this.history, userMessage)) {
        const reason = "stopped before the model answered";
        this.lastFailure = { prompt: text, withdrawn: true, reason, stopped: true };
        this.pending.putBack(taken);
        this.record({ type: "status", status: PROMPT_FAILED_STATUS, reason }, opts.onEvent);
      }
      return result;
    } catch (err) {
      // A failed request must not poison the next prompt: withdraw an unanswered prompt, and say so in the file.
      if (!(opts.signal?.aborted || isAbortError(err))) {
        const reason = errorMessage(err);
        const withdrawn = withdrawFailedPrompt(this.history, userMessage);
        this.lastFailure = { prompt: text, withdrawn, reason };
        if (withdrawn) {
          this.pending.putBack(taken); // they go with the next prompt instead
          this.record({ type: "status", status: PROMPT_FAILED_STATUS, reason }, opts.onEvent);
        }
      }
      throw err;
    }
  }

  /**
   * Runs a command the person typed after `!`, as a bash call of the main agent with the same
   * process handling as the model's calls. It is not put to the person again: only a deny rule
   * refuses it (the reason names the rule and its file). Its output goes to the model with the
   * next prompt (and is saved, so a resumed session shows it and still passes it on). Resolves
   * with what the tool returned.
   */
  async runShell(command: string, opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void } = {}): Promise<ToolResult> {
    const { note, result, durationMs } = await runShellCommand({ command, tools: this.tools, cwd: this.cwd, agent: MAIN_AGENT, onToolCall: this.policy.personal, signal: opts.signal, emit: (e) => opts.onEvent?.(e) });
    this.pending.shell.push(note);
    this.file?.recordLater({ type: "shell", ...note, ...(durationMs !== undefined ? { durationMs } : {}) }, opts.onEvent);
    return result;
  }

  /** Commands run with `!` whose output the next prompt will carry. */
  get pendingShellCommands(): readonly ShellNote[] {
    return this.pending.shell;
  }

  /**
   * Listens to the session's own channel: events of background children (and of children moved
   * there) and deliveries, whether or not a main run is going. Every mode subscribes once.
   */
  subscribe(listener: (event: AgentEvent) => void): () => void {
    return this.children.subscribe(listener);
  }

  /** Moves running foreground child `childId` (all, without one) to the background; their `task` calls return at once. Ids moved. */
  moveToBackground(childId?: string): string[] {
    return this.children.moveToBackground(childId);
  }

  /** This session's children with their state (`/tasks`). */
  get childRows(): ChildRow[] {
    return this.children.list();
  }

  /** Ids of the background children still running. */
  get backgroundRunning(): string[] {
    return this.children.runningInBackground;
  }

  /** True when a background child's report waits for the main agent. */
  get hasUndeliveredReports(): boolean {
    return this.children.hasUndelivered;
  }

  /** Resolves when no background child runs any more (or `signal` aborts). */
  whenBackgroundIdle(signal?: AbortSignal): Promise<void> {
    return this.children.whenBackgroundIdle(signal);
  }

  /**
   * Starts a main turn for the background reports waiting (the main agent was idle when they
   * arrived): they are its user message, and a `background_delivery` event (startsTurn) says why
   * the turn began. Resolves undefined when nothing waits (another run took them meanwhile).
   */
  async deliverBackground(opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void } = {}): Promise<LoopResult | undefined> {
    const [note] = takeDeliveries(this.children, true);
    if (!note) return undefined;
    this.record(undefined, opts.onEvent, "(background reports)");
    opts.onEvent?.(note.event!);
    this.emitMain = (event) => opts.onEvent?.(event);
    this.lastFailure = undefined;
    return this.runPrompt(note.content, opts);
  }

  /** Switches the model of the next turns (main, and children without a model of their own); saved in the session. Throws when the provider does not serve it. */
  setModel(model: string): void {
    const name = model.trim();
    if (name === "") throw new Error("give a model name, e.g. /model claude-sonnet-4-5");
    if (this.provider.ownsModel && !this.provider.ownsModel(name)) throw new Error(`the ${this.provider.name} provider does not serve model "${name}"`);
    this.model = name;
    this.file?.recordLater({ type: "settings", model: name });
  }

  /** Runs the loop for `userMessage`; a Stop hook may send the agent back to work (src/hooks/session-hooks.ts). */
  private async runPrompt(userMessage: string, opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void; model?: string }): Promise<LoopResult> {
    this.mainRuns++;
    try {
      return await runWithStopHook(
        () => this.runLoop(userMessage, opts),
        (reason) => this.runLoop(stopFeedback("Stop", reason), opts),
        (active) => this.hooks.stop(active, finalAssistantText(this.history), opts.signal),
      );
    } finally {
      this.mainRuns--;
      // A report that arrived after the run's last turn boundary asks for a turn of its own.
      if (this.mainRuns === 0 && this.children.hasUndelivered) this.children.emit({ type: "background_ready", childIds: this.children.list().filter((c) => c.state === "done").map((c) => c.childId), mainIdle: true });
    }
  }

  private async runLoop(userMessage: string, opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void; model?: string }): Promise<LoopResult> {
    const model = opts.model ?? this.model;
    // The session tree's budget: a stop ends this run before its next request (see budget.ts).
    const budgetStop = new AbortController();
    const signals = [opts.signal, this.file?.leaseLost.signal, budgetStop.signal].filter((s): s is AbortSignal => s !== undefined);
    const result = await runAgentLoop({
      provider: this.provider,
      model,
      system: this.system,
      // The main agent may change a file a running child changed; its result then warns (edit-claims.ts).
      tools: this.editClaims.warnMain(this.tools),
      history: this.history,
      userMessage,
      cwd: this.cwd,
      thinking: this.options.thinking,
      signal: AbortSignal.any(signals),
      onToolCall: this.onToolCall,
      onBeforeTurn: async (history, ctx) => {
        const verdict = await this.treeBudget.gate(MAIN_AGENT, ctx.turn - 1, ctx.signal, (event) => opts.onEvent?.(event));
        if (verdict && !ctx.signal.aborted) {
          opts.onEvent?.({ type: "warning", source: "budget", message: `${verdict.stop}: the main agent stopped before its next request` });
          budgetStop.abort();
          return;
        }
        await this.mainCompactor.onBeforeTurn?.(history, ctx);
      },
      onContextOverflow: this.mainCompactor.onContextOverflow,
      // Messages for the main agent (`steer`) and background children's reports enter at each turn boundary, once each.
      takeMessages: () => [...this.inbox.take(), ...takeDeliveries(this.children)],
      onMessage: (message) => this.record({ type: "message", message }, opts.onEvent),
      onEvent: (event) => {
        if (event.type === "tool_end" && event.call.name === "task") {
          // A refused call (no child ran) leaves its record too, saying why there is no transcript.
          const record = event.details ? (event.details as TaskDetails).taskRecord : event.result.isError ? refusedTaskRecord(event.call, event.result, event.durationMs) : undefined;
          if (record) this.record({ type: "task_record", record }, opts.onEvent);
        }
        if (event.type === "agent_end") this.record({ type: "usage", usage: event.usage }, opts.onEvent);
        if (event.type === "usage") this.treeBudget.add(model, event.usage);
        opts.onEvent?.(event);
      },
    });
    return result;
  }

  /** Appends one entry to the session file (see MainSessionFile.record: a failed write never breaks the run). */
  private record(entry: SessionEntryInput | undefined, onEvent?: (e: AgentEvent) => void, prompt?: string): void {
    this.file?.record(entry, onEvent, prompt);
  }

  /**
   * Releases the session's single-writer lock. Call when the session is done. A session kept in
   * memory (its file could not be written) tries once more to save everything first.
   */
  /**
   * Runs the SessionEnd hooks (call before `close` when the person ends the session), once: a
   * later call does nothing. `signal` stops them early (a signal exit). Never rejects.
   */
  async end(reason: "clear" | "logout" | "prompt_input_exit" | "other" = "other", opts: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.hooks.end(reason, opts.signal);
  }

  close(): void {
    this.children.abortAll();
    this.mcp.killAll();
    void this.mcp.close();
    this.file?.close();
  }
}
