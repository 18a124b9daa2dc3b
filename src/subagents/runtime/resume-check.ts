/**
 * Resume checks (SPEC §3 "Resume"): a saved child may continue only when its system prompt,
 * profile, tool set, provider/model and working directory match what it was created with, and
 * its transcript can be paired safely. A refusal lists everything that differs. Also resolves which model a child runs on.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { AgentMessage } from "../../protocol/messages.js";
import { PROVIDER_NAMES, type Provider, type ThinkingConfig } from "../../protocol/provider.js";
import { resolveModelAlias, unservedModelWarning } from "../../protocol/model-catalog.js";
import { SessionNotFoundError, type SessionStore } from "../../session/store.js";
import { HistoryRefusedError } from "../../session/repair.js";
import type { LoadedSession, SessionWorktree } from "../../session/types.js";
import { toToolSpec } from "../../tools/spec.js";
import type { AnyTool } from "../../protocol/tool.js";
import { childSystemPrompt, selectChildToolPool, SubagentConfigError } from "./child-prompt.js";
import type { AgentProfile } from "../profiles/profile-parse.js";
import { errorMessage } from "../../protocol/error-message.js";
import { driftReasons, systemDriftBesideTools } from "./resume-drift.js";

/**
 * The model a child runs on: the parent's, or the profile's when it names one. A profile model
 * must belong to the parent's provider (`provider/model` prefixes and `provider.ownsModel` are
 * checked); otherwise SubagentConfigError, before the child starts. A prefix that names no
 * provider (`vendor/models/x`) is part of the model id, passed whole (see providerPrefix).
 */
export function resolveChildModel(provider: Provider, parentModel: string, profile?: Pick<AgentProfile, "name" | "model" | "path" | "modelAlias">): string {
  const wanted = profile?.modelAlias !== undefined ? resolveModelAlias(profile.modelAlias, provider.modelCatalog?.()?.models) : profile?.model;
  if (!wanted || !profile) return parentModel;
  const where = profile.path ? ` (${profile.path})` : "";
  return checkChildModel(provider, wanted, `agent "${profile.name}"${where}`, "Change the profile's model: line or remove it.");
}

/**
 * The model a `task` call asked for (`model` argument), checked by the same rule as a profile's:
 * the parent's provider must serve it. Throws SubagentConfigError naming the choices.
 */
export function resolveDispatchModel(provider: Provider, wanted: string, parentModel: string): string {
  return checkChildModel(provider, resolveModelAlias(wanted, provider.modelCatalog?.()?.models), "task", `Pass one of its models (this session runs "${parentModel}"), or omit model to use the parent's.`);
}

/** A warning when the provider's model list is known and lacks the child's model `model` (it still runs: the list may be stale). */
export function childModelWarning(provider: Provider, model: string, who: string): string | undefined {
  const warning = unservedModelWarning(model, provider.modelCatalog?.(), provider.name);
  return warning && `${who}: ${warning}`;
}

/**
 * The provider a `provider/model` string names, or undefined when its slashes are part of a model
 * path (model ids behind a compatible server or proxy). The part before the first slash is a
 * provider when it is one Ink knows or this session's; otherwise the string is a model path when
 * it has more slashes (`vendor/models/x`) or the provider says it serves the whole string, and an
 * unknown provider's `name/model` (refused by the caller) when neither.
 */
export function providerPrefix(wanted: string, provider: Pick<Provider, "name" | "ownsModel">): string | undefined {
  const slash = wanted.indexOf("/");
  if (slash <= 0) return undefined;
  const prefix = wanted.slice(0, slash);
  if (prefix === provider.name || (PROVIDER_NAMES as readonly string[]).includes(prefix)) return prefix;
  if (wanted.includes("/", slash + 1) || provider.ownsModel?.(wanted)) return undefined;
  return prefix;
}

function checkChildModel(provider: Provider, wanted: string, who: string, fix: string): string {
  let model = wanted;
  const choices = provider.describeModels ? ` (it serves ${provider.describeModels()})` : "";
  const prefix = providerPrefix(wanted, provider);
  if (prefix !== undefined) {
    if (prefix !== provider.name) {
      throw new SubagentConfigError(`${who} asks for model "${wanted}" from provider "${prefix}", but this session uses provider "${provider.name}"${choices}; a subagent must use its parent's provider. ${fix}`);
    }
    model = wanted.slice(prefix.length + 1);
  }
  if (provider.ownsModel && !provider.ownsModel(model)) {
    throw new SubagentConfigError(`${who} asks for model "${model}", which provider "${provider.name}" does not serve${choices}; a subagent must use its parent's provider. ${fix}`);
  }
  return model;
}

export interface ResumeInputs {
  provider: Provider;
  model: string;
  getSystem: () => string;
  getTools: () => readonly AnyTool[];
  profiles: readonly AgentProfile[];
  store: SessionStore;
  id: string;
  /** The resuming parent's working directory. */
  parentCwd: string;
}

export type ResumeCheck =
  | { ok: true; profile?: AgentProfile; tools: AnyTool[]; model: string; modelFrom?: "task"; thinking?: ThinkingConfig; system: string; loaded: LoadedSession; cwd: string; worktree?: SessionWorktree }
  | { ok: false; reasons: string[]; unknown?: boolean };

/**
 * Checks that child session `id` can continue here; on success returns its repaired history and
 * setup. A refusal lists every reason at once (`unknown` when there is no such session).
 */
export function checkResumable(input: ResumeInputs): ResumeCheck {
  let header;
  try {
    header = input.store.readHeader(input.id);
  } catch (err) {
    return { ok: false, reasons: [errorMessage(err)], unknown: err instanceof SessionNotFoundError };
  }
  if (header.kind !== "child") return { ok: false, reasons: [`session ${input.id} is a main session, not a child; only child sessions can be resumed with task.`] };
  const reasons: string[] = [];
  if (header.provider !== input.provider.name) reasons.push(`provider differs: the child was created with "${header.provider}", this session uses "${input.provider.name}".`);
  const profile = header.profile === undefined ? undefined : input.profiles.find((p) => p.name === header.profile);
  if (header.profile !== undefined && !profile) reasons.push(`profile differs: the child ran agent "${header.profile}", which is not loaded now (was its file removed or the project not trusted?).`);
  let tools: AnyTool[] = [];
  let model = header.model;
  try {
    tools = selectChildToolPool(input.getTools(), profile);
    // A model the task call chose stays the child's (never silently the parent's); the provider must still serve it.
    model = header.modelFrom === "task" ? resolveDispatchModel(input.provider, header.model, input.model) : resolveChildModel(input.provider, input.model, profile);
  } catch (err) {
    reasons.push(errorMessage(err));
  }
  if (model !== header.model) reasons.push(`model differs: the child was created with "${header.model}", it would now run on "${model}".`);
  const names = tools.map((t) => t.name);
  const missing = header.toolNames.filter((n) => !names.includes(n));
  const added = names.filter((n) => !header.toolNames.includes(n));
  if (missing.length || added.length) {
    const parts = [missing.length ? `missing now: ${missing.join(", ")}` : "", added.length ? `new now: ${added.join(", ")}` : ""].filter(Boolean);
    reasons.push(`tool set differs (${parts.join("; ")}).`);
  }
  const expectedCwd = header.worktree ? header.cwd : resolve(input.parentCwd);
  if (resolve(header.cwd) !== expectedCwd) reasons.push(`working directory differs: the child was created in ${header.cwd}, this session runs in ${input.parentCwd}.`);
  else if (!existsSync(header.cwd)) reasons.push(`working directory ${header.cwd} no longer exists${header.worktree ? " (its worktree was removed)" : ""}.`);
  const system = childSystemPrompt(input.getSystem(), profile, tools);
  // Tools and system prompt are checked apart, each change named (a changed tool set is named above).
  if (header.profile === undefined || profile) {
    // A changed tool set is named above; the rest of the system prompt is still checked on its own.
    if (!missing.length && !added.length) reasons.push(...driftReasons(header, system, tools.map(toToolSpec), profile, input.store.path(input.id)));
    else reasons.push(...systemDriftBesideTools(header, system, profile, input.store.path(input.id)));
  }
  let loaded: LoadedSession | undefined;
  try {
    loaded = input.store.load(input.id);
  } catch (err) {
    if (err instanceof HistoryRefusedError) reasons.push(...err.problems.map((p) => `its transcript cannot be paired safely: ${p} (the file was left unchanged)`));
    else reasons.push(errorMessage(err));
  }
  if (reasons.length > 0 || !loaded) return { ok: false, reasons };
  return { ok: true, profile, tools, model, modelFrom: header.modelFrom, thinking: header.thinking, system, loaded, cwd: header.cwd, worktree: header.worktree };
}
