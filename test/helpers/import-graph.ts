/**
 * Our own small import-graph walk for test/boundaries.test.ts: every import specifier of a source
 * file, resolved to the real file it names (`../../core/loop.js` from a sub-folder → src/core/loop.ts),
 * the room each file lives in, the arrows that point the wrong way between rooms, and the file cycles.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** Every .ts/.tsx file under a directory (tests too: they are skipped by the callers that need to). */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g;

/** The module specifiers a file's text imports or re-exports (static, dynamic, type-only and side-effect imports). */
export function importSpecifiers(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((m) => m[1]!);
}

/**
 * The file a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx`, a folder its index), or
 * undefined for a package or a path that names no file.
 */
export function resolveImport(fromFile: string, specifier: string, exists: (path: string) => boolean = isFile): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(fromFile), specifier);
  const stem = base.replace(/\.(?:js|jsx|ts|tsx)$/, "");
  return [`${stem}.ts`, `${stem}.tsx`, base, join(base, "index.ts"), join(base, "index.tsx")].find(exists);
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/**
 * The room of a path relative to the repository root: `src/<room>/…` (with src/subagents/ split
 * into its sub-folders: `subagents/runtime`), `root` for a file directly in src/, `components`
 * for the UI; undefined for anything else (tests, scripts).
 */
export function roomOf(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  if (parts[0] === "components") return "components";
  if (parts[0] !== "src") return undefined;
  if (parts.length === 2) return "root";
  if (parts[1] === "subagents") return parts.length === 3 ? "subagents" : `subagents/${parts[2]}`;
  return parts[1];
}

/** The room of a file of the terminal UI: its sub-folder of components/ ("root" for App, MainScreen and the files beside them); undefined outside components/. */
export function componentRoomOf(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  if (parts[0] !== "components") return undefined;
  return parts.length === 2 ? "root" : parts[1];
}

/** An import between files, both relative to the repository root. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** Every import among `files` (absolute paths) that resolves to a file, as repo-relative edges. */
export function importEdges(root: string, files: readonly string[], read: (file: string) => string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of files) {
    for (const specifier of importSpecifiers(read(file))) {
      const target = resolveImport(file, specifier);
      if (target !== undefined) edges.push({ from: relative(root, file), to: relative(root, target) });
    }
  }
  return edges;
}

/**
 * The arrows that break the rooms' order: `levels` lists the rooms lowest first, one level per
 * entry; a room may import only rooms of a lower level (not its own level's other rooms), and
 * never those in `never[room]`. A file in a room with no level is named too, so a new room must be
 * placed before it can be imported from or import anything.
 */
export function roomArrowsBroken(edges: readonly ImportEdge[], levels: readonly (readonly string[])[], never: Readonly<Record<string, readonly string[]>> = {}, room: (path: string) => string | undefined = roomOf): string[] {
  const level = new Map<string, number>();
  levels.forEach((rooms, i) => rooms.forEach((room) => level.set(room, i)));
  const out: string[] = [];
  for (const { from, to } of edges) {
    const a = room(from);
    const b = room(to);
    if (a === undefined || b === undefined || a === b) continue;
    const la = level.get(a);
    const lb = level.get(b);
    if (la === undefined || lb === undefined) out.push(`${from} imports ${to}: room ${la === undefined ? a : b} has no level in the boundary test`);
    else if (never[a]?.includes(b)) out.push(`${from} imports ${to}: ${a} never imports ${b}`);
    else if (lb >= la) out.push(`${from} imports ${to}: ${a} may not import ${b} (${lb === la ? "same level" : "a higher level"})`);
  }
  return out;
}

/** The import cycles among the edges' files: each strongly connected group of two or more files, sorted. */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from)!.push(to);
  }
  // Tarjan's strongly connected components, iterative so a deep chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work.at(-1)!;
      const targets = next.get(top.node)!;
      if (top.i < targets.length) {
        const w = targets[top.i++]!;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work.at(-1)!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const group: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          group.push(w);
        } while (w !== top.node);
        if (group.length > 1 || next.get(top.node)!.includes(top.node)) groups.push(group.sort());
      }
    }
  }
  return groups;
}
