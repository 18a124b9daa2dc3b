/**
 * The demo model's worker children (issue #40), so a newcomer can try `/rewind` and `/merge`
 * without a key. A request that asks to add notes ("add a note to NOTES.md", "add notes to
 * NOTES.md, TODO.md and NOTES.md in worktrees") starts one worker child per file named (NOTES.md
 * when none is; "3 workers" repeats the files), each appending one line to its file with `bash` —
 * in the shared tree (checkpointed: `/rewind` takes it back) or, when the request says
 * "worktree(s)", each in its own git worktree (its branch kept: `/merge` merges them; two workers
 * on one file conflict). A worker resumed with a merge conflict (`/merge hand`) merges the target
 * branch in, keeps both sides of every conflicting hunk and commits. "… yourself" ("add a note to
 * TODO.md yourself") has the main agent append the line itself, with no worker, so a turn can hold
 * the main agent's own change.
 */
import type { DemoContext } from "./demo-conversation.js";
import type { DemoReply, PlannedCall } from "./demo-stream.js";

const WANTS_NOTES = /\b(?:add|append|write)\s+(?:a\s+|some\s+|\d+\s+|one\s+|two\s+|three\s+|four\s+)?notes?\b/i;
const IN_WORKTREES = /\bworktrees?\b/i;
const BY_MAIN = /\byourself\b/i;
const WORKER_TASK = /Append the line "([^"\n]+)" to `([^`\n]+)`/;
const MERGE_HAND = /^\[Ink merge queue\] Merging your branch (\S+) into (\S+) conflicts in/m;
const FILE_TOKEN = /(?:^|[\s,(])((?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7})(?=$|[\s,.;:)])/g;
const WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4 };
/** At most this many workers at once. */
export const MAX_DEMO_WORKERS = 4;

/** True when the main agent's request asks for notes to be added (the worker demo). */
export function wantsWorkers(prompt: string): boolean {
  return WANTS_NOTES.test(prompt);
}

/** The files each worker edits, in order: one per file named (or `n` in "n workers/worktrees/notes", cycling the files). */
export function workerFiles(prompt: string): string[] {
  const named = [...prompt.matchAll(FILE_TOKEN)].map((m) => m[1]!).filter((f) => !f.startsWith(".") && !f.includes(".."));
  const files = named.length > 0 ? named : ["NOTES.md"];
  const n = /\b(\d|one|two|three|four)\s+(?:workers|worktrees|notes|children)\b/i.exec(prompt)?.[1];
  const count = Math.min(MAX_DEMO_WORKERS, n ? (WORDS[n.toLowerCase()] ?? Number(n)) : files.length);
  return Array.from({ length: Math.max(1, count) }, (_, i) => files[i % files.length]!);
}

/** Turn 1 of the main agent: one `task` call per worker. */
function startWorkers(context: DemoContext): DemoReply {
  const worktree = IN_WORKTREES.test(context.prompt);
  const files = workerFiles(context.prompt);
  const calls: PlannedCall[] = files.map((file, i) => ({
    name: "task",
    arguments: {
      prompt: `Append the line "- note ${i + 1} from a demo worker" to \`${file}\` (create it if it is missing), then say what you changed.`,
      description: `worker ${i + 1}: ${file}`,
      ...(worktree ? { worktree: true } : {}),
    },
  }));
  const where = worktree ? "each in its own git worktree (its changes stay on a branch of its own)" : "in this working tree (every change is checkpointed)";
  return { text: `I'll start ${files.length} worker${files.length === 1 ? "" : "s"} ${where}: ${files.map((f, i) => `worker ${i + 1} on \`${f}\``).join(", ")}.`, calls };
}

/** Turn 2 of the main agent: what each worker did, and what to try next. */
function summariseWorkers(context: DemoContext): DemoReply {
  const worktree = IN_WORKTREES.test(context.prompt);
  const out: string[] = [];
  for (const { call, result } of context.exchanges.flatMap((e) => e.calls.filter((c) => c.call.name === "task"))) {
    const label = String(call.arguments.description ?? "worker");
    const branch = /changes kept on branch (\S+)/.exec(result?.content ?? "")?.[1];
    const status = !result ? "no result came back" : result.isError ? `failed: ${result.content.split("\n")[0]}` : branch ? `done, on branch \`${branch}\`` : "done";
    out.push(`- **${label}** — ${status}`);
  }
  const next = worktree
    ? "Try `/merge` to list their branches (diffstat, files two of them change, clean or not) and `/merge all` to merge them in order; a conflict stops the queue and `/merge hand` gives it back to its worker to resolve."
    : "Try `/rewind` (or Esc Esc on the empty prompt) to list the turns with what each changed, and `/rewind <turn> files` to take the notes back.";
  return { text: [`The workers have finished:`, ...out, "", next].join("\n"), calls: [] };
}

/** "add a note to TODO.md yourself": the main agent appends the line with its own `bash`, then says so. */
function planOwnNote(context: DemoContext): DemoReply | undefined {
  const file = workerFiles(context.prompt)[0]!;
  const line = "- note from the main agent";
  if (context.exchanges.length === 0) {
    if (context.lastRole !== "user") return undefined;
    if (!context.toolNames.has("bash")) return { text: "I have no bash tool here, so I cannot change the file.", calls: [] };
    return { text: `I'll append a note to \`${file}\` myself.`, calls: [{ name: "bash", arguments: { command: `printf '%s\\n' ${quote(line)} >> ${quote(file)} && echo appended` } }] };
  }
  if (context.lastRole !== "toolResult") return undefined;
  const result = context.exchanges.at(-1)?.calls[0]?.result;
  if (result && !result.isError && result.content.includes("appended")) return { text: `Appended "${line}" to \`${file}\`. Try \`/rewind\` to list the turns with what each changed.`, calls: [] };
  return { text: `I could not change \`${file}\`: ${(result?.content ?? "no result came back").trim().split("\n")[0]}`, calls: [] };
}

/** The main agent's reply in the worker demo (undefined when the request is not one). */
export function planWorkers(context: DemoContext): DemoReply | undefined {
  if (!wantsWorkers(context.prompt)) return undefined;
  if (BY_MAIN.test(context.prompt)) return planOwnNote(context);
  if (context.exchanges.length === 0) return context.lastRole === "user" ? startWorkers(context) : undefined;
  const last = context.exchanges[context.exchanges.length - 1]!;
  if (context.lastRole !== "toolResult" || !last.calls.every((c) => c.call.name === "task")) return undefined;
  return summariseWorkers(context);
}

/** Single-quotes `s` for bash. */
function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Removes git's conflict markers from the files named, keeping both sides (what `node -e` runs). */
const KEEP_BOTH = `const fs = require("fs"); for (const f of process.argv.slice(1)) fs.writeFileSync(f, fs.readFileSync(f, "utf8").split("\\n").filter((l) => !/^(<<<<<<< |=======$|>>>>>>> )/.test(l)).join("\\n"));`;

/** A worker child's reply (undefined when this child is not a demo worker). */
export function planWorkerChild(context: DemoContext): DemoReply | undefined {
  const hand = MERGE_HAND.exec(context.prompt);
  const task = WORKER_TASK.exec(context.prompt);
  if (!hand && !task) return undefined;
  if (!context.toolNames.has("bash")) return { text: "I have no bash tool here, so I cannot change the file.", calls: [] };
  const result = context.exchanges.at(-1)?.calls[0]?.result;
  if (hand) {
    const into = hand[2]!;
    if (context.exchanges.length === 0) {
      // git merge wants an identity before it starts: without one of the person's (no user.email
      // in any git config) the demo's merge commit is made as "Ink demo".
      const command = [
        `git config user.email >/dev/null || export GIT_AUTHOR_NAME='Ink demo' GIT_AUTHOR_EMAIL=demo@localhost GIT_COMMITTER_NAME='Ink demo' GIT_COMMITTER_EMAIL=demo@localhost`,
        `git merge --no-edit ${quote(into)}`,
        `files=$(git diff --name-only --diff-filter=U)`,
        `[ -n "$files" ] && node -e ${quote(KEEP_BOTH)} $files && git add -- $files && git commit -q --no-edit && echo "resolved:" $files`,
      ].join("; ");
      return { text: `Merging ${into} into my branch and keeping both sides of each conflict.`, calls: [{ name: "bash", arguments: { command } }] };
    }
    const resolved = /resolved: (.+)/.exec(result?.content ?? "")?.[1];
    if (result && !result.isError && resolved) return { text: `Merged ${into} into my branch; in ${resolved.trim()} I kept both sides (its lines and mine) and committed the merge.`, calls: [] };
    const said = (result?.content ?? "no result came back").trim().split("\n").filter((l) => l.trim() !== "");
    return { text: `I could not resolve the conflict: ${said[0]}${said.length > 1 ? ` … ${said.at(-1)}` : ""}`, calls: [] };
  }
  const [, line, file] = task!;
  if (context.exchanges.length === 0) return { text: "", calls: [{ name: "bash", arguments: { command: `printf '%s\\n' ${quote(line!)} >> ${quote(file!)} && echo appended` } }] };
  if (result && !result.isError && result.content.includes("appended")) return { text: `Appended "${line}" to \`${file}\`.`, calls: [] };
  return { text: `I could not change \`${file}\`: ${(result?.content ?? "no result came back").trim().split("\n")[0]}`, calls: [] };
}
