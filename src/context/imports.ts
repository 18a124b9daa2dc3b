/**
 * `@path` imports in context files (Claude Code's CLAUDE.md syntax): a word `@some/file.md`
 * outside code spans and fenced blocks names a file relative to the importing file (`~/` = the
 * home directory, a leading `/` = absolute). Imported files are read too, recursively up to
 * MAX_IMPORT_DEPTH hops, each once; a file that resolves (links followed) outside the allowed root
 * — the repository for project files — is named in a note and not read. A word naming no file
 * (`@someone`, `@types/node`) is left alone; one shaped like a file (`@docs/setup.md`, `@./notes`)
 * that does not exist is named in a note.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, resolve, sep } from "node:path";

/** How many hops of imports are followed from a context file. */
export const MAX_IMPORT_DEPTH = 5;

/** The `@path` words of `text`, outside fenced code blocks and inline code. */
export function importPaths(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const plain = line.replace(/`[^`]*`/g, " ");
    for (const m of plain.matchAll(/(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[\w.\-/~+]+)/g)) {
      const path = m[1]!.replace(/[.,;:)]+$/, "");
      if (path !== "" && !out.includes(path)) out.push(path);
    }
  }
  return out;
}

/** True when an `@word` is meant as a file: it starts like a path or ends in a file extension. */
function looksLikeFile(rel: string): boolean {
  return /^(?:~\/|\.{1,2}\/|\/)/.test(rel) || /\.[A-Za-z][\w-]{0,7}$/.test(rel);
}

/** One imported file, found by following imports from a context file. */
export interface ImportedFile {
  path: string;
  /** The file whose `@path` named it. */
  importedBy: string;
  depth: number;
}

function within(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The files `@path` imports of `path` (whose text is `text`) lead to, depth first in file order,
 * each at most once (`seen` holds real paths already loaded, shared across context files).
 * `read` gives a file's text (undefined when unreadable). Notes name refused and cut-off imports.
 */
export function followImports(path: string, text: string, opts: { root: string; seen: Set<string>; read: (path: string) => string | undefined; notes: string[]; depth?: number }): ImportedFile[] {
  const depth = opts.depth ?? 0;
  const out: ImportedFile[] = [];
  for (const rel of importPaths(text)) {
    const target = rel.startsWith("~/") ? resolve(homedir(), rel.slice(2)) : isAbsolute(rel) ? rel : resolve(dirname(path), rel);
    let real: string;
    try {
      if (!existsSync(target) || !statSync(target).isFile()) {
        if (looksLikeFile(rel)) opts.notes.push(`project context: ${path} imports @${rel}, but ${target} does not exist; fix the path or remove the import`);
        continue;
      }
      real = realpathSync(target);
    } catch {
      continue;
    }
    if (opts.seen.has(real)) continue;
    if (!within(real, opts.root)) {
      opts.notes.push(`project context: ${path} imports @${rel}, which resolves to ${real}, outside ${opts.root}; it was not read`);
      continue;
    }
    if (depth + 1 > MAX_IMPORT_DEPTH) {
      opts.notes.push(`project context: ${path} imports @${rel}, deeper than ${MAX_IMPORT_DEPTH} hops of imports; it was not read`);
      continue;
    }
    const body = opts.read(target);
    if (body === undefined) continue;
    opts.seen.add(real);
    out.push({ path: target, importedBy: path, depth: depth + 1 });
    out.push(...followImports(target, body, { ...opts, depth: depth + 1 }));
  }
  return out;
}
