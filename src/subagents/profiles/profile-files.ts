/**
 * Reading a profile directory: the `*.md` files in it and in its sub-folders (as Claude Code reads
 * agents; at most MAX_DEPTH folders deep, dotfiles and dot-folders ignored), each with its raw text
 * and a sha256 of its bytes. A missing directory is simply empty; anything else
 * that goes wrong is a problem naming the path, never an exception.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { errorMessage } from "../../protocol/error-message.js";

/** A file or directory that could not be used, and why (with the fix when there is one). */
export interface ProfileProblem {
  path: string;
  reason: string;
}

/** One profile file as read from disk. */
export interface ProfileFile {
  /** Absolute path. */
  path: string;
  /** File text (UTF-8). */
  raw: string;
  /** sha256 (hex) of the file's bytes. */
  hash: string;
}

/** The readable profile files of one directory (sorted by file name) and the problems met. */
export interface ProfileDirListing {
  files: ProfileFile[];
  problems: ProfileProblem[];
}

/** sha256 (hex) of some bytes or text. */
export function sha256(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Short form of a filesystem error: its code and message. */
function describeError(error: unknown): string {
  return errorMessage(error);
}

/** Sub-folder levels searched below a profile directory. */
export const MAX_DEPTH = 4;

/** The entries of a directory that are not dotfiles, sorted; a missing directory yields none. Throws other fs errors. */
function visibleNames(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return names.filter((name) => !name.startsWith(".")).sort();
}

/** Paths of the `*.md` files under `dir` (sorted, sub-folders after the folder's own files); unreadable sub-folders become problems. */
function markdownPaths(dir: string, depth: number, problems: ProfileProblem[]): string[] {
  const files: string[] = [];
  const folders: string[] = [];
  for (const name of visibleNames(dir)) {
    const path = join(dir, name);
    if (name.endsWith(".md")) files.push(path);
    else if (depth < MAX_DEPTH) {
      try {
        if (statSync(path).isDirectory()) folders.push(path);
      } catch {
        // a dangling link or a file that vanished: not a folder of profiles
      }
    }
  }
  for (const folder of folders) {
    try {
      files.push(...markdownPaths(folder, depth + 1, problems));
    } catch (error) {
      problems.push({ path: folder, reason: `cannot read the profile folder: ${describeError(error)}; fix its permissions or remove it` });
    }
  }
  return files;
}

/** Reads every profile file of `dir`. Contract: never throws. */
export function readProfileDir(dir: string): ProfileDirListing {
  const listing: ProfileDirListing = { files: [], problems: [] };
  let paths: string[];
  try {
    paths = markdownPaths(dir, 0, listing.problems);
  } catch (error) {
    listing.problems.push({ path: dir, reason: `cannot read the profile directory: ${describeError(error)}; fix its permissions or remove it` });
    return listing;
  }
  for (const path of paths) {
    try {
      if (!statSync(path).isFile()) continue;
      const bytes = readFileSync(path);
      listing.files.push({ path, raw: bytes.toString("utf8"), hash: sha256(bytes) });
    } catch (error) {
      listing.problems.push({ path, reason: `cannot read the file: ${describeError(error)}; fix its permissions or remove it` });
    }
  }
  return listing;
}
