/**
 * What a settings file may hold: the zod schema of every key (each with the message a wrong value
 * gets) and the types read from it. Loading and merging the files is settings.ts.
 */
import { z } from "zod";
import { parseCostBudget, parseThinking, parseTimeout, parseTokenBudget } from "../protocol/field-parsers.js";

/** A value that one of the shared field parsers (with their own messages) must accept. */
function checkedBy(parse: (value: unknown) => { ok: true } | { ok: false; message: string }) {
  return (value: unknown, ctx: z.RefinementCtx) => {
    const result = parse(value);
    if (!result.ok) ctx.addIssue({ code: "custom", message: result.message });
  };
}

const RULE_LIST = 'must be a list of rules such as ["bash(git status*)", "edit(src/**)", "mcp__docs__*"]';

/** A permission rule list of one scope. */
/** The most subagents that may run at once (settings' maxChildren and --max-children alike). */
export const MAX_CHILDREN = 64;

export const permissionRulesSchema = z
  .object({
    allow: z.array(z.string(), { error: RULE_LIST }).optional(),
    ask: z.array(z.string(), { error: RULE_LIST }).optional(),
    deny: z.array(z.string(), { error: RULE_LIST }).optional(),
    /** Mode used when no --permission-mode is given. */
    defaultMode: z.enum(["default", "accept-edits", "plan", "yolo"]).optional(),
    /** Claude Code's `"disable"`: no yolo (bypassPermissions) for the session, a mode switch or an agent file's permissionMode. */
    disableBypassPermissionsMode: z.literal("disable", { error: 'must be "disable" (or leave the key out)' }).optional(),
    /** Claude Code's `additionalDirectories`: more directories the tools work in as in the project (relative to the project, `~/` the home). */
    additionalDirectories: z.array(z.string().trim().min(1, "must not be empty"), { error: 'must be a list of directories such as ["../shared", "~/notes"]' }).optional(),
  })
  .strict();

export type PermissionRules = z.infer<typeof permissionRulesSchema>;

/** Every key a settings file may hold. */
export const settingsSchema = z
  .object({
    /** Default model id. */
    model: z.string().trim().min(1, 'must be a model id such as "claude-sonnet-4-5"; remove the key for the provider\'s default').optional(),
    /** Default provider. */
    provider: z.enum(["anthropic", "demo"]).optional(),
    /** Extended thinking: off | minimal | low | medium | high | max | a token budget. */
    thinking: z.union([z.string(), z.number(), z.boolean()], { error: 'must be off, minimal, low, medium, high, max or a token budget ≥ 1024, e.g. "thinking": "medium"' }).superRefine(checkedBy(parseThinking)).optional(),
    /** Subagents running at once. */
    maxChildren: z.number({ error: `must be a whole number from 1 to ${MAX_CHILDREN}, e.g. "maxChildren": 4` }).int(`must be a whole number from 1 to ${MAX_CHILDREN}, e.g. "maxChildren": 4`).min(1, "must be at least 1 (one subagent at a time)").max(MAX_CHILDREN, `must be at most ${MAX_CHILDREN}`).optional(),
    /** Headless limit for each subagent: ms, or "90s" / "5m" / "1h". */
    childTimeout: z.union([z.number(), z.string()], { error: 'must be milliseconds (e.g. 600000) or a duration such as "90s", "5m" or "1h"' }).superRefine(checkedBy(parseTimeout)).optional(),
    /** How long a subagent may stay paused on rate limits / overload / lost connections in all before it fails: ms or "30m". */
    childPauseLimit: z.union([z.number(), z.string()], { error: 'must be milliseconds (e.g. 1800000) or a duration such as "90s", "30m" or "1h"' }).superRefine(checkedBy(parseTimeout)).optional(),
    /** Token budget of the whole session tree (the main agent and every child): a number or "500k". */
    maxTokens: z.union([z.number(), z.string()], { error: 'must be a number of tokens such as 500000 or "500k"' }).superRefine(checkedBy(parseTokenBudget)).optional(),
    /** Cost budget in USD of the whole session tree: a number or "$5". */
    maxCostUsd: z.union([z.number(), z.string()], { error: 'must be an amount in US dollars such as 5 or "$5"' }).superRefine(checkedBy(parseCostBudget)).optional(),
    permissions: permissionRulesSchema.optional(),
    /** MCP servers by name; each entry is validated by the MCP layer. */
    mcpServers: z.record(z.string(), z.unknown(), { error: 'must be an object of servers by name, e.g. {"docs": {"command": "npx", "args": ["my-mcp-server"]}}' }).optional(),
    /** Colour theme of the terminal UI. */
    theme: z.enum(["dark", "light", "auto"]).optional(),
    /** Draw the TUI inline (in the terminal's scrollback) instead of full-screen. */
    inline: z.boolean({ error: "must be true or false" }).optional(),
    /** Full-screen: the mouse wheel scrolls the transcript (default true; false leaves the mouse to the terminal). */
    mouse: z.boolean({ error: "must be true or false" }).optional(),
    /** Hooks in Claude Code's format (event → [{matcher, hooks: [{type: "command", command, timeout}]}]); checked by src/hooks/config.ts. */
    hooks: z.record(z.string(), z.unknown(), { error: 'must be an object of hook events, e.g. {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]}' }).optional(),
    /** Also start the MCP servers of Claude Code's ~/.claude.json (user settings only). */
    claudeMcpServers: z.boolean({ error: "must be true or false" }).optional(),
    /** Terminal notifications when a child ends or waits for an approval and when a long run ends: off, bell (BEL, the default) or desktop (OSC 9/777 where the terminal shows them, else BEL). */
    notify: z.enum(["off", "bell", "desktop"], { error: 'must be "off", "bell" or "desktop", e.g. "notify": "desktop"' }).optional(),
    /** Environment variables (names, `*` wildcards allowed) that tools' processes may inherit although they look like secrets. User settings only. */
    envPassthrough: z.array(z.string(), { error: 'must be a list of variable names, e.g. ["GITHUB_TOKEN", "AWS_*"]' }).optional(),
    /** What unattended bash calls (yolo, background and worktree children) may also do: write these paths, keep the network. User settings only. */
    sandbox: z
      .object(
        {
          allowWrite: z
            .array(z.string().refine((p) => p.startsWith("/") || p.startsWith("~/"), { message: 'each path must be absolute or start with "~/", e.g. "~/.npm"' }), { error: 'must be a list of absolute paths, e.g. ["~/.npm", "/srv/cache"]' })
            .optional(),
          network: z.enum(["on", "off"], { error: 'must be "on" or "off", e.g. "network": "on"' }).optional(),
        },
        { error: 'must be an object such as {"allowWrite": ["~/.npm"], "network": "on"}' },
      )
      .strict()
      .optional(),
  })
  .strict();

export type Settings = z.infer<typeof settingsSchema>;
export type SettingsKey = keyof Settings;

/** Where a value came from; "claude": a trusted project's `.claude/settings*.json` (permission rules only). */
export type SettingsScope = "user" | "project" | "claude";

/** One file's settings. */
export interface ScopedSettings {
  scope: SettingsScope;
  path: string;
  settings: Settings;
}
