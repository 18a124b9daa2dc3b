/**
 * What an AgentSession is built from (every mode fills it: print mode, TUI, RPC, ACP). Defaults
 * live where they are used: the headless child timeout in session-tools.ts.
 */
import type { ApprovalOptions } from "../core/approval.js";
import type { McpServerConfig } from "../mcp/config.js";
import type { Provider, ThinkingConfig } from "../protocol/provider.js";

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
  /** Answers approval `requestId` (the `approve` / `deny` ops) for the front end whose `approval.ask` put it; returns why it cannot. */
  answerApproval?: (requestId: string, approved: boolean, reason?: string) => string | undefined;
  /** Default child timeout for headless runs (ms); default 10 minutes. */
  taskTimeoutMs?: number;
  /** How long a child may stay paused on transient failures in all (default 30 min). */
  childPauseLimitMs?: number;
  maxConcurrentChildren?: number;
  thinking?: ThinkingConfig;
  /** Persist sessions (default true). */
  persist?: boolean;
  /** Checkpoints before agents' changes (default on when sessions are saved; false: none; an object: the store's bound). */
  checkpoints?: boolean | { maxTurns?: number; maxBytes?: number };
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
