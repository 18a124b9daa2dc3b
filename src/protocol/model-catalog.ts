/**
 * The models a provider serves: its own list (the Messages API's `GET /v1/models`, cached by
 * src/providers/model-cache.ts), and an offline table used when no list was ever had. Aliases (`opus`, `sonnet`, `haiku`, `fable`, `mythos`, `opusplan`) resolve to
 * the newest model of that line the provider serves; a model id the list does not hold is a
 * warning (never a refusal: the list may be stale, or a proxy may serve more); and a model that
 * takes an effort setting gets its thinking level sent as one (see requestThinking).
 */

/** One model a provider serves, as much as Ink uses of it. */
export interface ServedModel {
  id: string;
  /** The model line (`opus`, `sonnet`, …) the provider names; absent when it names none. */
  line?: string;
  /** Release time (RFC 3339), for "newest". */
  createdAt?: string;
  /** Effort levels it takes (`output_config.effort`); absent = no effort setting. */
  effort?: string[];
  /** Takes `thinking: {type: "adaptive"}`. */
  adaptive?: boolean;
  /** Takes `thinking: {type: "enabled", budget_tokens}`. */
  budget?: boolean;
}

/** A provider's list as fetched (or read from the cache). */
export interface ModelCatalog {
  /** Where it came from: the API base URL. */
  source: string;
  /** Epoch ms of the fetch. */
  fetchedAt: number;
  models: ServedModel[];
}

/** A cached list older than this is fetched again (a stale one still serves until then). */
export const MODEL_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Claude Code's model aliases → the offline table's ids (`inherit` = the parent's model). */
export const CLAUDE_MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: "claude-sonnet-4-5",
  opus: "claude-opus-4-6",
  haiku: "claude-haiku-4-5",
  opusplan: "claude-opus-4-6",
  fable: "claude-fable-5-2",
  mythos: "claude-mythos-5-2",
};

/** The line an alias names (`opusplan` plans with opus). */
function aliasLine(alias: string): string | undefined {
  const key = alias.trim().toLowerCase();
  if (CLAUDE_MODEL_ALIASES[key] === undefined) return undefined;
  return key === "opusplan" ? "opus" : key;
}

/** True when `name` is an alias Ink knows. */
export function isModelAlias(name: string): boolean {
  return aliasLine(name) !== undefined;
}

/** The line of a served model: the provider's word, else the family in a `claude-<line>-…` id. */
function lineOf(model: ServedModel): string | undefined {
  return model.line ?? /^claude-([a-z]+)-/.exec(model.id)?.[1];
}

/**
 * The model id an alias stands for: the newest of its line in `served` (release time, else the
 * list's order, newest first as the API lists them), else the offline table. A name that is no
 * alias comes back as it is.
 */
export function resolveModelAlias(name: string, served?: readonly ServedModel[]): string {
  const line = aliasLine(name);
  if (line === undefined) return name;
  const candidates = (served ?? []).filter((m) => lineOf(m) === line);
  if (candidates.length > 0) {
    const ranked = candidates.map((m, i) => ({ m, i })).sort((a, b) => (b.m.createdAt ?? "").localeCompare(a.m.createdAt ?? "") || a.i - b.i);
    return ranked[0]!.m.id;
  }
  return CLAUDE_MODEL_ALIASES[name.trim().toLowerCase()]!;
}

/**
 * A warning when the provider's list is known and does not hold `model`, naming the model, where
 * the list came from and a few it does serve; undefined when it serves it or no list is known.
 */
export function unservedModelWarning(model: string, catalog: ModelCatalog | undefined, providerName: string): string | undefined {
  if (!catalog || catalog.models.length === 0) return undefined;
  if (catalog.models.some((m) => m.id === model)) return undefined;
  const some = catalog.models.slice(0, 6).map((m) => m.id);
  const more = catalog.models.length > some.length ? `, … (${catalog.models.length} in all; /model lists them)` : "";
  return `the ${providerName} provider's model list (${catalog.source}) does not have "${model}"; requests may fail. It serves ${some.join(", ")}${more}`;
}

/** `major.minor` of a `claude-<line>-<major>[-<minor>]` id (a date suffix is no minor), or undefined. */
function versionOf(id: string): number | undefined {
  const m = /^claude-[a-z]+-(\d+)(?:-(\d{1,2}))?(?:-\d{8})?$/.exec(id);
  if (!m) return undefined;
  return Number(m[1]) + Number(m[2] ?? 0) / 10;
}

/**
 * What a model takes when the provider's list says nothing of it (offline table): effort from
 * Opus 4.5 on and every 4.6 or later model; adaptive thinking (and no budget) from 4.6 on.
 */
export function offlineModelInfo(id: string): ServedModel {
  const version = versionOf(id);
  if (version === undefined) return { id, budget: true };
  const effort = (id.startsWith("claude-opus-") && version >= 4.5) || version >= 4.6;
  const adaptive = version >= 4.6;
  return { id, ...(effort ? { effort: ["low", "medium", "high", "max"] } : {}), adaptive, budget: !adaptive };
}

/** Ink's thinking levels → the API's effort levels. */
const LEVEL_EFFORT: Readonly<Record<string, string>> = { minimal: "low", low: "low", medium: "medium", high: "high", max: "max" };

/** The effort level of a budget with no level: the nearest named level at or above it. */
function budgetEffort(budget: number): string {
  if (budget <= 4000) return "low";
  if (budget <= 10000) return "medium";
  if (budget <= 32000) return "high";
  return "max";
}

/** The thinking asked for (provider.ts's ThinkingConfig, written out here so the two files import in one direction). */
type ThinkingConfig = { type: "off" } | { type: "on"; budgetTokens: number; level?: string };

/** The request fields for `thinking` on `model`: what to send as `thinking` and `output_config`. */
export interface ThinkingFields {
  thinking?: { type: "enabled"; budget_tokens: number } | { type: "adaptive" };
  effort?: string;
}

/** The API's effort levels, lowest first. */
export const EFFORT_LEVELS = ["low", "medium", "high", "xhigh", "max"] as const;

/** The highest of `takes` at or below `wanted` (else the lowest it takes). */
function takenEffort(wanted: string, takes: readonly string[]): string {
  const fits = EFFORT_LEVELS.filter((e, i) => i <= EFFORT_LEVELS.indexOf(wanted as (typeof EFFORT_LEVELS)[number]) && takes.includes(e));
  return fits[fits.length - 1] ?? takes[0]!;
}

/**
 * How `thinking` is sent to `model`: a model that takes an effort setting gets the level as
 * `output_config.effort` (the highest it takes at or below the level asked for) with adaptive
 * thinking when it takes that, else the budget; any other model gets the token budget. With no
 * thinking set at all, `defaultEffort` (Claude Code's `effortLevel`) goes to a model that takes
 * an effort setting, alone; any other model gets nothing.
 */
export function requestThinking(thinking: ThinkingConfig | undefined, model: string, served?: readonly ServedModel[], defaultEffort?: string): ThinkingFields {
  const info = served?.find((m) => m.id === model) ?? offlineModelInfo(model);
  if (thinking === undefined && defaultEffort !== undefined && info.effort && info.effort.length > 0) return { effort: takenEffort(defaultEffort, info.effort) };
  if (thinking?.type !== "on") return {};
  const budget = { type: "enabled" as const, budget_tokens: thinking.budgetTokens };
  if (!info.effort || info.effort.length === 0) return { thinking: budget };
  const wanted = thinking.level !== undefined ? (LEVEL_EFFORT[thinking.level] ?? "medium") : budgetEffort(thinking.budgetTokens);
  const effort = takenEffort(wanted, info.effort);
  if (info.adaptive) return { thinking: { type: "adaptive" }, effort };
  return info.budget === false ? { effort } : { thinking: budget, effort };
}

/** The age of a catalog in words (`3 min`, `5 h`), for `/model`. */
export function catalogAge(catalog: ModelCatalog, now: number = Date.now()): string {
  const min = Math.max(0, Math.round((now - catalog.fetchedAt) / 60_000));
  if (min < 60) return `${min} min`;
  const h = Math.round(min / 60);
  return h < 48 ? `${h} h` : `${Math.round(h / 24)} days`;
}
