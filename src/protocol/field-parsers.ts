/**
 * Field parsers shared by agent profiles and settings: thinking levels, durations and budgets, each
 * failure a message naming the value and how to write it instead.
 */
import type { ThinkingConfig } from "./provider.js";

/** A parsed value, or what is wrong with it. */
export type FieldResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** Shows a front-matter value in a message. */
export function show(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The smallest thinking budget the Anthropic API accepts. */
export const MIN_THINKING_BUDGET = 1024;

/**
 * Token budgets of the named thinking levels (Anthropic's `budget_tokens`). `minimal` is the
 * smallest budget the API accepts; `max` is the most that still leaves 4,096 tokens for the answer
 * under a 64k output limit (the request's max_tokens is raised to budget + 4,096).
 */
export const THINKING_BUDGETS = { minimal: MIN_THINKING_BUDGET, low: 4000, medium: 10000, high: 32000, max: 59_904 } as const;

/** The named thinking levels, smallest first (`off` besides them). */
export const THINKING_LEVELS = ["minimal", "low", "medium", "high", "max"] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

/** Smallest and largest profile timeout in ms (the largest is what Node timers can hold). */
export const MIN_TIMEOUT_MS = 1000;
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** `thinking`: off | minimal | low | medium | high | max, true/false, 0 (off) or an integer budget ≥ 1024. */
export function parseThinking(value: unknown): FieldResult<ThinkingConfig> {
  const hint = `use off, ${THINKING_LEVELS.map((l) => `${l} (${THINKING_BUDGETS[l]})`).join(", ")}, true/false, or a token budget ≥ ${MIN_THINKING_BUDGET}`;
  if (value === false || value === 0) return { ok: true, value: { type: "off" } };
  if (value === true) return { ok: true, value: { type: "on", budgetTokens: THINKING_BUDGETS.medium, level: "medium" } };
  if (typeof value === "number") {
    if (Number.isInteger(value) && value >= MIN_THINKING_BUDGET) return { ok: true, value: { type: "on", budgetTokens: value } };
    return { ok: false, message: `${show(value)} is not a valid budget; ${hint}` };
  }
  if (typeof value === "string") {
    const level = value.trim().toLowerCase();
    if (level === "off") return { ok: true, value: { type: "off" } };
    if ((THINKING_LEVELS as readonly string[]).includes(level)) {
      return { ok: true, value: { type: "on", budgetTokens: THINKING_BUDGETS[level as ThinkingLevel], level: level as ThinkingLevel } };
    }
  }
  return { ok: false, message: `${show(value)} is not a thinking level; ${hint}` };
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/** Converts "90s", "5m", "1h", "1m30s", "1500ms" or a bare number string (ms) into ms; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (!/^(\d+(\.\d+)?\s*(ms|sec|min|s|m|h)\s*)+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const match of trimmed.matchAll(/(\d+(?:\.\d+)?)\s*(ms|sec|min|s|m|h)/g)) {
    total += Number(match[1]) * (DURATION_UNITS[match[2]!] ?? Number.NaN);
  }
  return Number.isFinite(total) ? Math.round(total) : undefined;
}

/** `timeout`: integer ms ≥ 1000, or a duration string ("90s", "5m", "1h"). */
export function parseTimeout(value: unknown): FieldResult<number> {
  const hint = `write milliseconds (e.g. 90000) or a duration such as "90s", "5m" or "1h"`;
  let ms: number | undefined;
  if (typeof value === "number") ms = Number.isInteger(value) ? value : undefined;
  else if (typeof value === "string") ms = parseDuration(value);
  if (ms === undefined) return { ok: false, message: `${show(value)} is not a duration; ${hint}` };
  if (ms < MIN_TIMEOUT_MS) return { ok: false, message: `must be at least ${MIN_TIMEOUT_MS} ms, got ${show(value)} (${ms} ms); ${hint}` };
  if (ms > MAX_TIMEOUT_MS) return { ok: false, message: `must be at most ${MAX_TIMEOUT_MS} ms (about 24 days), got ${show(value)}` };
  return { ok: true, value: ms };
}

/** How to write a token budget (`maxTokens`). */
export const TOKEN_HINT = "write a whole number of tokens above 0 such as 50000, or \"50k\" / \"1.5m\"";
/** How to write a cost budget (`maxCostUsd`). */
export const COST_HINT = "write an amount in US dollars above 0 such as 2 or 0.5 (or \"$2\")";

/** `maxTokens`: a whole number above 0, or "50k" / "1.5m" / "200000". */
export function parseTokenBudget(value: unknown): FieldResult<number> {
  let n: number | undefined;
  if (typeof value === "number") n = value;
  else if (typeof value === "string") {
    const m = /^\s*(\d+(?:\.\d+)?)\s*([km]?)\s*$/i.exec(value.replace(/_/g, ""));
    const unit = m?.[2]?.toLowerCase();
    if (m) n = unit ? Math.round(Number(m[1]) * (unit === "k" ? 1000 : 1_000_000)) : Number(m[1]);
  }
  if (n === undefined || !Number.isFinite(n)) return { ok: false, message: `${show(value)} is not a number of tokens; ${TOKEN_HINT}` };
  if (n <= 0) return { ok: false, message: `${show(value)} must be more than 0; ${TOKEN_HINT}` };
  if (!Number.isInteger(n)) return { ok: false, message: `${show(value)} is not a whole number; ${TOKEN_HINT}` };
  return { ok: true, value: n };
}

/** `maxCostUsd`: an amount above 0 in US dollars, or "$2" / "2.50". */
export function parseCostBudget(value: unknown): FieldResult<number> {
  let n: number | undefined;
  if (typeof value === "number") n = value;
  else if (typeof value === "string" && /^\s*\$?\s*\d+(\.\d+)?\s*$/.test(value)) n = Number(value.replace(/[\s$]/g, ""));
  if (n === undefined || !Number.isFinite(n)) return { ok: false, message: `${show(value)} is not an amount; ${COST_HINT}` };
  if (n <= 0) return { ok: false, message: `${show(value)} must be more than 0; ${COST_HINT}` };
  return { ok: true, value: n };
}

