/** Defaults from settings.json for the CLI (model, thinking, max children, child timeout); flags win. */
import type { ThinkingConfig } from "../protocol/provider.js";
import { checkSettingsRules } from "../permissions/settings-rules.js";
import { loadSettings, type LoadedSettings } from "../settings/settings.js";
import { parseDuration, parseThinking } from "../subagents/profiles/profile-schema.js";

export interface SettingsDefaults {
  model?: string;
  provider?: string;
  thinking?: ThinkingConfig;
  /** Claude Code's `effortLevel`: the effort a model that takes one gets when no thinking level is set. */
  effort?: string;
  maxChildren?: number;
  childTimeoutMs?: number;
  childPauseLimitMs?: number;
  /** Draw the TUI inline instead of full-screen. */
  inline?: boolean;
  /** Full-screen mouse-wheel scrolling (default on). */
  mouse?: boolean;
  /** Terminal notifications in the TUI (default bell). */
  notify?: "off" | "bell" | "desktop";
  warnings: string[];
}

/** Reads the settings (throws SettingsError naming the file for an unusable one or a rule that could never match) and converts the defaults. */
export function settingsDefaults(inkHome: string, cwd: string, trusted: boolean): SettingsDefaults {
  const loaded: LoadedSettings = loadSettings({ inkHome, projectDir: cwd, trusted });
  checkSettingsRules(loaded.scopes);
  const e = loaded.effective;
  const thinking = e.thinking === undefined ? undefined : parseThinking(e.thinking);
  const timeout = e.childTimeout === undefined ? undefined : typeof e.childTimeout === "number" ? e.childTimeout : parseDuration(e.childTimeout);
  return {
    model: e.model,
    provider: e.provider,
    thinking: thinking?.ok ? thinking.value : undefined,
    effort: loaded.effortLevel,
    maxChildren: e.maxChildren,
    childTimeoutMs: timeout,
    childPauseLimitMs: e.childPauseLimit === undefined ? undefined : typeof e.childPauseLimit === "number" ? e.childPauseLimit : parseDuration(e.childPauseLimit),
    inline: e.inline,
    mouse: e.mouse,
    notify: e.notify,
    warnings: loaded.warnings,
  };
}
