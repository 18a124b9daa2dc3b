/**
 * Summarises a V8 CPU profile (`node --cpu-prof` writes one `.cpuprofile` per process) as the areas
 * the busy time went to: each sample is one sampling interval (the median gap between samples) of
 * self time of the function it hit — not its own gap, which on a loaded machine also holds the time
 * the thread waited for a CPU (a signal that could not be delivered meanwhile is one sample, not
 * several, so counting samples leaves that wait out); the main thread's only (V8's GC and compiler
 * threads are not sampled: the bench gives their CPU beside it); a function of a bundled file (dist/chunk-*.js) is placed at its original source
 * through the file's source map (Node's own `SourceMap`), and the source's path names its area
 * (React, Yoga, Ink, our rows/diff/write, markdown, string width …; `AREAS` below). Idle time is
 * kept apart, so the shares are of the time the process was busy. What a missed CPU target's row
 * says limits it (bench/targets.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
/** The parts of a `.cpuprofile` read here. */
export interface CpuProfile {
  nodes: ProfileNode[];
  /** When sampling started (µs of the system's monotonic clock: process.hrtime's on Linux). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Areas by where a function's code comes from (its original source's path, else its script's URL,
 * else V8's name for it), the first match wins. Our own files are matched by their directory.
 */
const AREAS: [string, RegExp][] = [
  ["idle", /^\(idle\)$/],
  ["GC", /^\(garbage collector\)$/],
  ["V8 (compile, runtime)", /^\(program\)$/],
  ["React", /node_modules\/(react|react-reconciler|scheduler)\//],
  ["Yoga layout", /node_modules\/yoga-layout\//],
  ["string width, ANSI", /node_modules\/(string-width|strip-ansi|ansi-regex|ansi-styles|wrap-ansi|slice-ansi|cli-truncate|get-east-asian-width|emoji-regex|widest-line|chalk)\//],
  ["Ink", /node_modules\/ink\//],
  ["rows, diff, write (components/terminal)", /components\/terminal\//],
  ["markdown", /components\/markdown\/|components\/layout\/markdown|node_modules\/(marked|micromark|mdast)/],
  ["layout, rows (components/layout)", /components\/layout\//],
  ["UI state (components/state, hooks)", /components\/(state|hooks)\//],
  ["views (components)", /components\//],
  ["provider, SDK", /src\/providers\/|node_modules\/@anthropic-ai\//],
  ["session, agent core", /src\//],
  ["other packages", /node_modules\//],
  ["Node (streams, I/O, timers)", /^node:/],
  ["WebAssembly (Yoga; undici's HTTP parser)", /^wasm:/],
];

/** The area a function whose code comes from `where` belongs to. */
export function areaOf(where: string): string {
  for (const [area, re] of AREAS) if (re.test(where)) return area;
  return where === "" || where.startsWith("(") ? "V8 built-ins, natives" : "other";
}

/** Where a call frame's code comes from: its original source through its file's source map when there is one, else its URL (or V8's name). */
function sourceResolver(): (frame: CallFrame) => string {
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (url: string): SourceMap | undefined => {
    if (!maps.has(url)) {
      let map: SourceMap | undefined;
      try {
        const file = fileURLToPath(url);
        const text = readFileSync(file, "utf8");
        const ref = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
        const mapFile = ref && !ref.startsWith("data:") ? join(dirname(file), ref) : `${file}.map`;
        if (existsSync(mapFile)) map = new SourceMap(JSON.parse(readFileSync(mapFile, "utf8")));
      } catch {
        map = undefined;
      }
      maps.set(url, map);
    }
    return maps.get(url);
  };
  return (frame) => {
    if (!frame.url) return frame.functionName.startsWith("(") ? frame.functionName : "";
    if (!frame.url.startsWith("file:")) return frame.url;
    const entry = mapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string } | undefined;
    return entry?.originalSource ?? fileURLToPath(frame.url);
  };
}

/** `where` without the directories above a package (`ink/build/x.js`) or above our own top directories (`components/x.ts`). */
function shortPath(where: string): string {
  const pkg = where.lastIndexOf("node_modules/");
  if (pkg >= 0) return where.slice(pkg + "node_modules/".length);
  return where.replace(/^(\.\.\/)+/, "").replace(/^.*\/(?=(components|src|bench|dist)\/)/, "");
}

/** One area's (or function's) self time. */
export interface Share {
  name: string;
  ms: number;
}

export interface ProfileSummary {
  /** Time the profile covers, idle included (ms). */
  totalMs: number;
  idleMs: number;
  /** Busy time by area, largest first (idle left out). */
  areas: Share[];
  /** The functions with the most self time, largest first: `name (source)`. */
  functions: Share[];
}

/** A span of the monotonic clock (µs; `process.hrtime.bigint() / 1000n` of any process on the machine). */
export interface Window {
  fromUs: number;
  toUs: number;
}

/** The summary of `profile` (`top` functions kept), of the samples taken within `window` when given (else all). */
export function summarizeProfile(profile: CpuProfile, o: { top?: number; window?: Window } = {}): ProfileSummary {
  const resolve = sourceResolver();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const gaps = profile.timeDeltas.filter((d) => d > 0).sort((a, b) => a - b);
  const interval = gaps[Math.floor(gaps.length / 2)] ?? 0;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (o.window && (t < o.window.fromUs || t > o.window.toUs)) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + interval);
  });
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || us <= 0) continue;
    totalUs += us;
    const where = resolve(frame);
    const area = areaOf(where);
    areas.set(area, (areas.get(area) ?? 0) + us);
    if (area !== "idle") {
      const key = frame.functionName.startsWith("(") ? frame.functionName : `${frame.functionName || "(anonymous)"} (${shortPath(where) || "native"})`;
      functions.set(key, (functions.get(key) ?? 0) + us);
    }
  }
  const sorted = (m: Map<string, number>) => [...m].map(([name, us]) => ({ name, ms: us / 1000 })).sort((a, b) => b.ms - a.ms);
  const idleMs = (areas.get("idle") ?? 0) / 1000;
  areas.delete("idle");
  return { totalMs: totalUs / 1000, idleMs, areas: sorted(areas), functions: sorted(functions).slice(0, o.top ?? 5) };
}

/** Reads and summarises the `.cpuprofile` at `path`. */
export function summarizeProfileFile(path: string, o: { top?: number; window?: Window } = {}): ProfileSummary {
  return summarizeProfile(JSON.parse(readFileSync(path, "utf8")) as CpuProfile, o);
}

/** "busy 1.21 s of 20.4: React 31 %, Yoga layout 18 %, … ; top: fn (source) 90 ms, …": the `areas` largest areas and the top functions. */
export function formatSummary(s: ProfileSummary, areas = 6): string {
  const busy = s.totalMs - s.idleMs;
  const pct = (ms: number) => `${Math.round((100 * ms) / busy)} %`;
  const parts = s.areas.slice(0, areas).map((a) => `${a.name} ${pct(a.ms)}`);
  const fns = s.functions.map((f) => `${f.name} ${f.ms.toFixed(0)} ms`);
  return `busy ${(busy / 1000).toFixed(2)} s of ${(s.totalMs / 1000).toFixed(1)} s profiled: ${parts.join(", ")}${fns.length ? `; top functions: ${fns.join(", ")}` : ""}`;
}
