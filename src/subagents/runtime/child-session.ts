/**
 * A child's session file: created (new child) or reopened (resumed child) with its lock. A
 * persistence problem never stops a child: the writer then keeps the transcript in memory (with
 * one warning) and the child runs without a lock.
 */
import type { WarningEvent } from "../../protocol/events.js";
import { errorMessage } from "../../protocol/error-message.js";
import type { AnyTool } from "../../protocol/tool.js";
import type { ThinkingConfig } from "../../protocol/provider.js";
import type { PersistenceNotice } from "../../session/durable-writer.js";
import { fingerprint, textHash, toolHashes } from "../../session/fingerprint.js";
import { packageVersion } from "../../protocol/ink-version.js";
import type { SessionLock } from "../../session/lock.js";
import type { SessionStore, SessionWriter } from "../../session/store.js";
import { toToolSpec } from "../../tools/spec.js";
import { projectContextHash } from "../../context/project-context.js";
import { withoutToolList } from "./child-prompt.js";

/** What the child's session header records (new children only) and who opens it. */
export interface ChildSessionInput {
  childId: string;
  /** True for a resumed child: its existing file is reopened under `lock`. */
  resumed: boolean;
  /** A resumed child's lock, taken before its history was read; released here when the file cannot be opened. */
  lock?: SessionLock;
  parentId?: string;
  parentToolCallId: string;
  cwd: string;
  provider: string;
  model: string;
  /** "task" when the task call chose the model (resume keeps it). */
  modelFrom?: "task";
  thinking?: ThinkingConfig;
  /** The child's budget (saved; a resumed run gets it afresh). */
  budget?: { maxTokens?: number; maxCostUsd?: number };
  profile?: string;
  /** The profile's hash (its file's text), recorded so a resume can name an edited profile. */
  profileHash?: string;
  system: string;
  tools: readonly AnyTool[];
  prompt: string;
  /** The child's short description as given to `task` (normalized); absent when none was given. */
  description?: string;
  worktree?: { path: string; branch: string };
}

/**
 * The child's session writer and lock (both undefined without a store). Throws only when a
 * resumed child's file cannot be reopened (its lock is then released); a new child's file problems
 * become warnings through `warn` and an in-memory writer.
 */
export function openChildSession(
  store: SessionStore | undefined,
  input: ChildSessionInput,
  warn: (source: WarningEvent["source"], message: string) => void,
): { writer?: SessionWriter; lock?: SessionLock } {
  if (!store) return {};
  const onNotice = (notice: PersistenceNotice) => warn("session", notice.message);
  if (input.resumed) {
    try {
      return { writer: store.open(input.childId, { onNotice }), lock: input.lock };
    } catch (err) {
      input.lock?.release();
      throw err;
    }
  }
  const writer = store.create(
    {
      kind: "child",
      parentId: input.parentId,
      parentToolCallId: input.parentToolCallId,
      cwd: input.cwd,
      provider: input.provider,
      model: input.model,
      ...(input.modelFrom ? { modelFrom: input.modelFrom } : {}),
      ...(input.thinking ? { thinking: input.thinking } : {}),
      ...(input.budget ? { budget: input.budget } : {}),
      profile: input.profile,
      fingerprint: fingerprint(input.system, input.tools.map(toToolSpec)),
      inkVersion: packageVersion(),
      systemHash: textHash(input.system),
      promptHash: textHash(withoutToolList(input.system)),
      toolHashes: toolHashes(input.tools.map(toToolSpec)),
      ...(input.profileHash ? { profileHash: input.profileHash } : {}),
      toolNames: input.tools.map((t) => t.name),
      prompt: input.prompt,
      ...(input.description ? { description: input.description } : {}),
      worktree: input.worktree,
      contextHash: projectContextHash(input.system),
    },
    { id: input.childId, onNotice },
  );
  if (writer.inMemory) return { writer };
  try {
    return { writer, lock: store.lock(input.childId, `child of ${input.parentToolCallId}`) };
  } catch (err) {
    warn("lock", `runs without a session lock (${errorMessage(err)})`);
    return { writer };
  }
}
