/**
 * Project context for the system prompt: `$INK_HOME/AGENTS.md` (the user's; when there is none,
 * Claude Code's `~/.claude/CLAUDE.md`), then for each
 * directory from the repository root down to the working directory its `AGENTS.md` — or, when
 * it has none, its `CLAUDE.md` — so the nearest file comes last and weighs most. Each file is
 * capped, and so is the whole; a cut says so in the text and in a note. No repository → only
 * the working directory is read.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Largest part of one file that is kept (characters). */
export const CONTEXT_FILE_CAP = 20_000;
/** Largest total (characters); the farthest files are dropped first. */
export const CONTEXT_TOTAL_CAP = 40_000;

/** One loaded file. */
export interface ContextFile {
  path: string;
  scope: "user" | "project";
  chars: number;
  /** True when the file was cut or dropped by the caps. */
  cut: boolean;
}

export interface ProjectContext {
  /** The text for the system prompt's project-context section ("" when there is none). */
  text: string;
  files: ContextFile[];
  /** One line per cut, for the person. */
  notes: string[];
}

/** Directories from the repository root (a directory holding `.git`) down to `cwd`; just `cwd` outside a repository. */
export function contextDirs(cwd: string): string[] {
  const chain: string[] = [];
  let dir = resolve(cwd);
  for (;;) {
    chain.push(dir);
    if (existsSync(join(dir, ".git"))) return chain.reverse();
    const up = dirname(dir);
    if (up === dir) return [resolve(cwd)];
    dir = up;
  }
}

function readIfFile(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? readFileSync(path, "utf8") : undefined;
  } catch {
    return undefined;
  }
}

/** Cuts text at `cap` characters without splitting a surrogate pair. */
function cutAt(text: string, cap: number): string {
  let end = cap;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

/** Loads the context files. Contract: never throws; unreadable files are skipped. */
export function loadProjectContext(opts: { cwd: string; inkHome: string; claudeHome?: string; fileCap?: number; totalCap?: number }): ProjectContext {
  const fileCap = opts.fileCap ?? CONTEXT_FILE_CAP;
  const totalCap = opts.totalCap ?? CONTEXT_TOTAL_CAP;
  const found: { path: string; scope: "user" | "project"; text: string }[] = [];
  // The user's file: Ink's own, else Claude Code's memory file (`claudeHome`, when given).
  let userFile = join(resolve(opts.inkHome), "AGENTS.md");
  let user = readIfFile(userFile);
  if (user === undefined && opts.claudeHome !== undefined) {
    const claudeFile = join(resolve(opts.claudeHome), "CLAUDE.md");
    const text = readIfFile(claudeFile);
    if (text !== undefined) [userFile, user] = [claudeFile, text];
  }
  if (user !== undefined && user.trim() !== "") found.push({ path: userFile, scope: "user", text: user });
  for (const dir of contextDirs(opts.cwd)) {
    for (const name of ["AGENTS.md", "CLAUDE.md"]) {
      const path = join(dir, name);
      const text = readIfFile(path);
      if (text === undefined) continue;
      if (text.trim() !== "" && path !== userFile) found.push({ path, scope: "project", text });
      break;
    }
  }
  const notes: string[] = [];
  const files: ContextFile[] = [];
  const parts: string[] = [];
  let budget = totalCap;
  // Nearest first for the budget (so the farthest is what gets cut), printed nearest last.
  for (const f of [...found].reverse()) {
    const body = f.text.trim();
    const cap = Math.min(fileCap, Math.max(0, budget));
    let kept = body.length > cap ? cutAt(body, cap) : body;
    const cut = kept.length < body.length;
    if (cut) {
      const why = cap === 0 ? "dropped: the project context is full" : `cut to its first ${kept.length} of ${body.length} characters`;
      notes.push(`project context: ${f.path} ${why} (limits: ${fileCap} per file, ${totalCap} in all)`);
      if (cap > 0) kept += `\n\n[… ${f.path} was cut here: ${body.length - kept.length} more characters not shown; read the file for the rest]`;
    }
    budget -= kept.length;
    files.unshift({ path: f.path, scope: f.scope, chars: body.length, cut });
    if (kept !== "") parts.unshift(`## ${f.path}\n\n${kept}`);
  }
  return { text: parts.join("\n\n"), files, notes };
}

/** Lines for `/context`: each file with its size, or how to add one. */
export function describeProjectContext(context: ProjectContext): string[] {
  if (context.files.length === 0) return ["No project context loaded (add AGENTS.md — or CLAUDE.md — to the project, or $INK_HOME/AGENTS.md for yourself)."];
  return [
    "Project context in the system prompt (nearest last):",
    ...context.files.map((f) => `  ${f.path} (${f.scope}, ${f.chars} characters${f.cut ? ", cut" : ""})`),
    ...context.notes.map((n) => `  ${n}`),
  ];
}

/** A short hash of the project-context section of a (parent or child) system prompt; "" when it has none. */
export function projectContextHash(system: string): string {
  const start = system.indexOf("\n# Project context\n");
  if (start < 0) return "";
  const end = system.indexOf("\n\n# Subagent mode", start);
  return createHash("sha256").update(system.slice(start, end < 0 ? undefined : end)).digest("hex").slice(0, 16);
}
