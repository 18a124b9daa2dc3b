/**
 * The start-up answers that need nothing else: the usage text and the version. This module imports
 * only node built-ins, so `ink --help` / `ink --version` never load the core, zod or the UI.
 */

/** The `--help` text. */
export const USAGE = `Usage: ink [options]            open the interactive terminal UI
       ink -p "<prompt>" [options] run one request headless and print the answer
       ink --acp [options]         serve the Agent Client Protocol on stdin/stdout (editors: Zed, JetBrains, Neovim)
       ink --mode rpc [options]    a JSON control channel: commands on stdin, events on stdout (docs/control.md)
       ink config [--cwd <dir>]    print the effective settings and where each came from
       ink worktrees [--prune [--force]] [--cwd <dir>]  list (or remove the empty) subagent worktrees of this repository

Options:
  -p, --print <prompt>      headless: final answer on stdout, progress on stderr; -p @brief.md reads the prompt
                            from a file, -p - from stdin (a long prompt: arguments are capped at 128 KiB)
      --output text|json    print mode output; json prints every event as a JSON line
      --mode rpc            JSON lines: prompt/steer/abort/approve/deny/get_state/list_children/resume_child/list_branches/merge/list_turns/rewind in, every event out
      --provider <name>     anthropic | demo (default: anthropic when ANTHROPIC_API_KEY is set, else demo)
      --model <id>          model id (default: the provider's, or INK_MODEL)
      --thinking <level>    extended thinking: off | minimal | low | medium | high | max | <budget tokens> (anthropic)
      --cwd <dir>           working directory (default: the current directory)
      --yolo                allow every tool without asking
      --permission-mode <m> default | accept-edits | plan | yolo (see docs/permissions.md)
      --allow <rule>        allow without asking (repeatable), e.g. --allow 'bash(git status*)' or --allow edit, --allow 'mcp__docs__*'
      --trust               trust this project: load (and remember) its .ink/agents and .claude/agents profiles, .ink/settings.json and .mcp.json
      --task-timeout <ms>   headless limit for each subagent (default 600000)
      --max-children <n>    subagents running at once (default 4)
      --resume [id]         reopen a saved main session (without id: list this directory's sessions)
  -c, --continue            reopen the most recent session of this directory
      --acp                 an ACP agent on stdio for an editor (see docs/acp.md)
      --inline              draw the UI in the terminal's scrollback instead of full-screen (settings: "inline": true)
      --take-over-lock      with --resume/--continue: take over the session's lock held on another host, or an old-format
                            lock that cannot be checked (only when that run is over)
  -h, --help                show this help
  -v, --version             print the version

Environment:
  ANTHROPIC_API_KEY         use the anthropic provider with this key
  ANTHROPIC_BASE_URL        another Anthropic-compatible endpoint (a proxy or a local server)
  INK_MODEL                 default model id
  INK_HOME                  Ink's home: settings.json, AGENTS.md, agents/, sessions/ (default ~/.ink)
  INK_CLAUDE_HOME           Claude Code's home, for its agents/, skills/, commands/, CLAUDE.md and settings.json permission rules (default ~/.claude; its ../.claude.json for claudeMcpServers)
  INK_AGENTS_HOME           the cross-tool home whose skills/ Ink reads (default ~/.agents)
  ANTHROPIC_LOG             let the Anthropic SDK log (e.g. debug) to the terminal; off by default
  INK_STREAM_IDLE_MS        cut (and retry) a model response that sends no content this long (default 180000)
  INK_BASH_SANDBOX          off: run bash without its PID namespace; unshare: skip bubblewrap
  INK_DEMO_DELAY_MS         pacing of the offline demo model (0 = no delay)
  INK_SCROLL_REGION         on | off | auto (default): let the terminal scroll the full-screen transcript (DECSTBM)
  INK_FRAME_DIFF            off: write every frame whole instead of only its changed cells
  INK_BENCH_FRAMES          (benchmarks) append each frame's time and phases in ms to this file

Settings ($INK_HOME/settings.json; a trusted project's .ink/settings.json): model, provider, thinking,
maxChildren, childTimeout, childPauseLimit, maxTokens, maxCostUsd, permissions, mcpServers, theme, inline, mouse, notify, hooks, claudeMcpServers, envPassthrough, sandbox. Flags win.`;

export { packageVersion } from "../protocol/ink-version.js";
import { packageVersion } from "../protocol/ink-version.js";

const HELP = new Set(["-h", "--help"]);
const VERSION = new Set(["-v", "--version"]);

/**
 * The output for an argv made only of help/version flags (help wins, as in the full parser), or
 * undefined when anything else is given and the full CLI has to run.
 */
export function quickAnswer(argv: readonly string[]): string | undefined {
  if (argv.length === 0 || !argv.every((a) => HELP.has(a) || VERSION.has(a))) return undefined;
  return argv.some((a) => HELP.has(a)) ? `${USAGE}\n` : `${packageVersion()}\n`;
}
