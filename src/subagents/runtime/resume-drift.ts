/**
 * Why a saved child's instructions no longer match (resume "drift"): the tool definitions and the
 * system prompt are told apart, each changed tool is named, and a changed system prompt says which
 * part moved — the project context (AGENTS.md / CLAUDE.md), the child's profile file, or Ink itself
 * (another version made the child). Children saved before these were recorded get one combined
 * reason. Every reason ends with the way forward.
 */
import { projectContextHash } from "../../context/project-context.js";
import { packageVersion } from "../../protocol/ink-version.js";
import type { ToolSpec } from "../../protocol/provider.js";
import { fingerprint, textHash, toolHashes } from "../../session/fingerprint.js";
import type { SessionHeader } from "../../session/types.js";
import type { AgentProfile } from "../profiles/profile-parse.js";
import { withoutToolList } from "./child-prompt.js";

/**
 * The drift reasons for resuming the child of `header` with `system` and `specs` now (none when its
 * fingerprint still matches). `transcript` is the child's session file, named in the fix.
 */
export function driftReasons(header: SessionHeader, system: string, specs: readonly ToolSpec[], profile: Pick<AgentProfile, "name" | "hash" | "path"> | undefined, transcript: string): string[] {
  if (fingerprint(system, specs) === header.fingerprint) return [];
  const now = packageVersion();
  const versions = header.inkVersion !== undefined && header.inkVersion !== now ? ` The child was created by Ink ${header.inkVersion}; this is Ink ${now}.` : "";
  const fix = ` A child continues only under the instructions it started with: start a new task (without resume) and give it what this child found — its transcript is ${transcript}.`;
  const reasons: string[] = [];
  const contextChanged = header.contextHash !== undefined && header.contextHash !== projectContextHash(system);
  if (header.systemHash === undefined || header.toolHashes === undefined) {
    // Saved before the parts were recorded: only the whole is known to differ.
    if (contextChanged) reasons.push(`project context changed: an AGENTS.md / CLAUDE.md file in the system prompt was added, edited or removed since the child was created.${fix}`);
    else reasons.push(`system prompt differs from the one the child was created with (the project context${profile ? `, the profile "${profile.name}"` : ""}, Ink's own instructions or a tool definition changed; this child was saved by an older Ink that did not record which).${fix}`);
    return reasons;
  }
  const nowTools = toolHashes(specs);
  const changedTools = Object.keys(nowTools).filter((n) => header.toolHashes![n] !== undefined && header.toolHashes![n] !== nowTools[n]);
  if (changedTools.length > 0) {
    reasons.push(`tool definitions changed since the child was created: ${changedTools.join(", ")} (description or parameters).${versions}${fix}`);
  }
  if (header.systemHash !== textHash(system)) reasons.push(systemReason(changedPart(header, system, profile, versions) ?? "the parent's instructions changed (e.g. the skills, agents or settings listed in them)", versions, fix));
  if (reasons.length === 0) reasons.push(`system prompt or tool definitions differ from the ones the child was created with.${versions}${fix}`);
  return reasons;
}

/**
 * When the child's tool set itself changed (named apart), whether the rest of its system prompt
 * changed too: its text without the tool list is compared (children saved before that was recorded:
 * only a changed project context or an edited profile can be told). [] when nothing else changed.
 */
export function systemDriftBesideTools(header: SessionHeader, system: string, profile: Pick<AgentProfile, "name" | "hash" | "path"> | undefined, transcript: string): string[] {
  const now = packageVersion();
  const versions = header.inkVersion !== undefined && header.inkVersion !== now ? ` The child was created by Ink ${header.inkVersion}; this is Ink ${now}.` : "";
  const fix = ` A child continues only under the instructions it started with: start a new task (without resume) and give it what this child found — its transcript is ${transcript}.`;
  const part = changedPart(header, system, profile, versions);
  if (header.promptHash === undefined) return part ? [systemReason(part, versions, fix)] : [];
  if (header.promptHash === textHash(withoutToolList(system))) return [];
  return [systemReason(part ?? "the parent's instructions changed (e.g. the skills, agents or settings listed in them)", versions, fix)];
}

function systemReason(part: string, versions: string, fix: string): string {
  return `system prompt differs from the one the child was created with: ${part}.${versions}${fix}`;
}

/** The part of the system prompt known to have changed: the project context, the profile, or Ink itself (another version). */
function changedPart(header: SessionHeader, system: string, profile: Pick<AgentProfile, "name" | "hash" | "path"> | undefined, versions: string): string | undefined {
  if (header.contextHash !== undefined && header.contextHash !== projectContextHash(system)) return "the project context changed (an AGENTS.md / CLAUDE.md file in it was added, edited or removed)";
  if (profile && header.profileHash !== undefined && header.profileHash !== profile.hash) return `the profile "${profile.name}" was edited${profile.path ? ` (${profile.path})` : ""}`;
  if (versions) return "Ink's own instructions changed";
  return undefined;
}
