/**
 * Project context for the system prompt: `$INK_HOME/AGENTS.md` (the user's; when there is none,
 * Claude Code's `~/.claude/CLAUDE.md`), then for each
 * directory from the repository root down to the working directory its `AGENTS.md` and its
 * `CLAUDE.md` (each once, also when one imports the other) — so the nearest file comes last and weighs most. Each file is
 * capped, and so is the whole; a cut says so in the text and in a note. No repository → only
 * the working directory is read. Each directory's `CLAUDE.local.md` (personal, Claude Code's) is
 * read after its shared file (and the `.md` files under `.claude/rules/` — Claude Code's project rules — before
 * it; a rule with `paths:` front matter is not read, with a note), and `@path` imports are followed (src/context/imports.ts): a
 * project file's only inside the repository, the user's only inside its own directory.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readdirSync, readSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { followImports } from "./imports.js";
import { parseYamlFrontMatter } from "./front-matter.js";

/** Largest part of one file that is kept (characters). */
export const CONTEXT_FILE_CAP = 64_000;
/** Largest total (characters); the farthest files are dropped first. */
export const CONTEXT_TOTAL_CAP = 128_000;

/** One loaded file. */
export interface ContextFile {
  path: string;
  /** "local": a CLAUDE.local.md (the person's own notes for this project). */
  scope: "user" | "project" | "local";
  /** The context file whose `@path` import brought this one in. */
  importedBy?: string;
  chars: number;
  /** The file's size, when only its head was read (a file far over the cap). */
  bytes?: number;
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

/**
 * The start of a regular file: at most `maxChars` characters' worth of bytes (or 1 MB) are read —
 * a 1 GB file costs what its kept part costs; `size` is the whole file's size in bytes.
 */
export function readHead(path: string, maxChars: number): { text: string; size: number; partial: boolean } | undefined {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return undefined;
    // UTF-8 takes at most 4 bytes a character; a file under 1 MB is read whole (exact counts in notes).
    const want = Math.min(stat.size, Math.max(maxChars * 4 + 4, 1 << 20));
    const buf = Buffer.alloc(want);
    const fd = openSync(path, "r");
    let got = 0;
    try {
      while (got < want) {
        const n = readSync(fd, buf, got, want - got, got);
        if (n === 0) break;
        got += n;
      }
    } finally {
      closeSync(fd);
    }
    const partial = got < stat.size;
    const decoded = buf.subarray(0, got).toString("utf8");
    // A character cut at the end of a partial read is dropped, not turned into U+FFFD.
    const text = partial ? decoded.replace(/\uFFFD+$/, "") : decoded;
    return { text, size: stat.size, partial };
  } catch {
    return undefined;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** True when `path` resolves (links followed) to a place inside `root` (itself resolved). */
function resolvesInside(path: string, root: string): { inside: boolean; real: string } {
  try {
    const real = realpathSync(path);
    return { inside: real === root || real.startsWith(root.endsWith(sep) ? root : root + sep), real };
  } catch {
    return { inside: false, real: path };
  }
}

/** Cuts text at `cap` characters without splitting a surrogate pair. */
function cutAt(text: string, cap: number): string {
  let end = cap;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

/**
 * Loads the context files. A project file is read only when it resolves (links followed) inside
 * the repository — a link to `~/.ssh/id_rsa` is named in a note and skipped — and only as much of
 * any file is read as the cap keeps. `trusted: false` adds a note naming the project files that
 * were loaded. Contract: never throws; unreadable files are skipped.
 */
export function loadProjectContext(opts: { cwd: string; inkHome: string; claudeHome?: string; fileCap?: number; totalCap?: number; trusted?: boolean }): ProjectContext {
  const fileCap = opts.fileCap ?? CONTEXT_FILE_CAP;
  const totalCap = opts.totalCap ?? CONTEXT_TOTAL_CAP;
  const notes: string[] = [];
  type Found = { path: string; scope: ContextFile["scope"]; importedBy?: string; text: string; size: number; partial: boolean };
  const found: Found[] = [];
  const seen = new Set<string>();
  /** Adds a context file and the files its `@path` imports lead to (inside `root`). */
  const add = (entry: Found, root: string) => {
    if (seen.has(realOrSelf(entry.path))) return; // already imported by an earlier file
    found.push(entry);
    seen.add(realOrSelf(entry.path));
    const heads = new Map<string, NonNullable<ReturnType<typeof readHead>>>();
    const read = (p: string) => {
      const head = readHead(p, fileCap);
      if (head) heads.set(p, head);
      return head?.text;
    };
    for (const imp of followImports(entry.path, entry.text, { root, seen, notes, read })) found.push({ path: imp.path, scope: entry.scope, importedBy: imp.importedBy, ...heads.get(imp.path)! });
  };
  // The user's file: Ink's own, else Claude Code's memory file (`claudeHome`, when given).
  let userFile = join(resolve(opts.inkHome), "AGENTS.md");
  let user = readHead(userFile, fileCap);
  if (user === undefined && opts.claudeHome !== undefined) {
    const claudeFile = join(resolve(opts.claudeHome), "CLAUDE.md");
    const head = readHead(claudeFile, fileCap);
    if (head !== undefined) [userFile, user] = [claudeFile, head];
  }
  if (user !== undefined && user.text.trim() !== "") add({ path: userFile, scope: "user", ...user }, realOrSelf(dirname(userFile)));
  const dirs = contextDirs(opts.cwd);
  const root = realOrSelf(dirs[0]!);
  for (const dir of dirs) {
    for (const name of ["AGENTS.md", "CLAUDE.md"]) {
      const path = join(dir, name);
      if (!existsSync(path)) continue;
      const where = resolvesInside(path, root);
      if (!where.inside) {
        notes.push(`project context: ${path} is a link to ${where.real}, outside the project (${root}); it was not read`);
        continue;
      }
      const head = readHead(path, fileCap);
      if (head === undefined) continue;
      // Both are read (AGENTS.md first); one the other imports is read once, where it was first met.
      if (head.text.trim() !== "" && path !== userFile) add({ path, scope: "project", ...head }, root);
    }
    for (const rule of ruleFiles(join(dir, ".claude", "rules"))) {
      const where = resolvesInside(rule, root);
      if (!where.inside) {
        notes.push(`project context: ${rule} is a link to ${where.real}, outside the project (${root}); it was not read`);
        continue;
      }
      const head = readHead(rule, fileCap);
      if (head === undefined || head.text.trim() === "") continue;
      let text = head.text;
      try {
        const parsed = parseYamlFrontMatter(head.text);
        const data = (parsed.data ?? {}) as Record<string, unknown>;
        if (data.paths !== undefined) {
          notes.push(`project context: ${rule} applies only to the files its "paths:" names; Ink reads rules without "paths:" only, so it was not read (remove "paths:" to have it always read)`);
          continue;
        }
        text = parsed.content;
      } catch {
        // Not front matter Ink can read: the whole file is the rule.
      }
      if (text.trim() !== "") add({ path: rule, scope: "project", ...head, text }, root);
    }
    const local = join(dir, "CLAUDE.local.md");
    if (existsSync(local)) {
      const where = resolvesInside(local, root);
      const head = where.inside ? readHead(local, fileCap) : undefined;
      if (!where.inside) notes.push(`project context: ${local} is a link to ${where.real}, outside the project (${root}); it was not read`);
      else if (head !== undefined && head.text.trim() !== "") add({ path: local, scope: "local", ...head }, root);
    }
  }
  const files: ContextFile[] = [];
  const parts: string[] = [];
  let budget = totalCap;
  // Nearest first for the budget (so the farthest is what gets cut), printed nearest last.
  for (const f of [...found].reverse()) {
    const body = f.partial ? f.text.trimStart() : f.text.trim();
    const cap = Math.min(fileCap, Math.max(0, budget));
    let kept = body.length > cap ? cutAt(body, cap) : body;
    const cut = kept.length < body.length || f.partial;
    if (cut) {
      const whole = f.partial ? `${f.size} bytes` : `${body.length} characters`;
      const why = cap === 0 ? "dropped: the project context is full" : `cut to its first ${kept.length} of ${whole}`;
      notes.push(`project context: ${f.path} ${why} (limits: ${fileCap} per file, ${totalCap} in all)`);
      const rest = f.partial ? "the rest of the file is" : `${body.length - kept.length} more characters`;
      if (cap > 0) kept += `\n\n[… ${f.path} was cut here: ${rest} not shown; read the file for the rest]`;
    }
    budget -= kept.length;
    files.unshift({ path: f.path, scope: f.scope, ...(f.importedBy ? { importedBy: f.importedBy } : {}), chars: body.length, ...(f.partial ? { bytes: f.size } : {}), cut });
    if (kept !== "") parts.unshift(`## ${f.path}${f.importedBy ? ` (imported by ${f.importedBy})` : ""}\n\n${kept}`);
  }
  const fromProject = files.filter((f) => f.scope === "project");
  if (opts.trusted === false && fromProject.length > 0) {
    notes.push(`project context: this project is not trusted; its ${fromProject.map((f) => f.path).join(", ")} went into the system prompt as text (nothing in it runs or sets rules)`);
  }
  return { text: parts.join("\n\n"), files, notes };
}

/** The `.md` files under `dir` (Claude Code's `.claude/rules/`), sorted, sub-folders included. */
function ruleFiles(dir: string, depth = 0): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    try {
      const st = statSync(path);
      if (st.isDirectory()) return depth < 4 ? ruleFiles(path, depth + 1) : [];
      return st.isFile() && name.endsWith(".md") ? [path] : [];
    } catch {
      return [];
    }
  });
}

/** Lines for `/context`: each file with its size, or how to add one. */
export function describeProjectContext(context: ProjectContext): string[] {
  if (context.files.length === 0) return ["No project context loaded (add AGENTS.md — or CLAUDE.md — to the project, or $INK_HOME/AGENTS.md for yourself)."];
  return [
    "Project context in the system prompt (nearest last):",
    ...context.files.map((f) => `  ${f.path} (${f.scope}${f.importedBy ? `, imported by ${f.importedBy}` : ""}, ${f.bytes !== undefined ? `${f.bytes} bytes` : `${f.chars} characters`}${f.cut ? ", cut" : ""})`),
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
