/**
 * What the demo investigator learns from a `read` result: the numbered lines it shows and the
 * definitions on them (`function X`, `class X`, `export const X`, `def X`, …).
 */

/** One numbered line of a read result. */
export interface NumberedLine {
  line: number;
  text: string;
}

/** A named definition found in source text. */
export interface Definition {
  name: string;
  kind: "function" | "class" | "const" | "interface" | "type" | "method" | "test suite";
  line: number;
}

const NUMBERED = /^\s*(\d+)\s*(?:\t|[:|│→]\s?)(.*)$/;

/**
 * parseReadOutput: the numbered lines of a read result. Lines prefixed by a line number
 * ("  3\t…", "3: …", "3| …", "3→…") keep that number; if no line carries one, lines are numbered
 * from `offset` (default 1). Note lines in brackets ("[… more lines]") are skipped.
 */
export function parseReadOutput(output: string, offset = 1): NumberedLine[] {
  const raw = output.split("\n").map((l) => l.replace(/\r$/, ""));
  const numbered = raw.map((l) => NUMBERED.exec(l)).filter((m): m is RegExpExecArray => m !== null);
  if (numbered.length > 0 && numbered.length >= raw.filter((l) => l.trim() !== "").length / 2) {
    return numbered.map((m) => ({ line: Number(m[1]), text: m[2]! }));
  }
  return raw.filter((l) => !/^\s*\[.*\]\s*$/.test(l)).map((text, i) => ({ line: offset + i, text }));
}

const PATTERNS: Array<{ kind: Definition["kind"]; re: RegExp }> = [
  { kind: "test suite", re: /^\s*describe(?:\.\w+)?\(\s*["'`]([^"'`\n]{1,80})["'`]/ },
  { kind: "function", re: /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/ },
  { kind: "class", re: /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/ },
  { kind: "function", re: /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=>/ },
  { kind: "const", re: /^\s*export\s+(?:const|let|var)\s+([A-Za-z_$][\w$]*)/ },
  { kind: "interface", re: /^\s*(?:export\s+)?interface\s+([A-Za-z_$][\w$]*)/ },
  { kind: "type", re: /^\s*(?:export\s+)?type\s+([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*=/ },
  { kind: "function", re: /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/ },
  { kind: "class", re: /^\s*class\s+([A-Za-z_]\w*)\s*[(:]/ },
  { kind: "function", re: /^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/ },
  { kind: "function", re: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+([A-Za-z_]\w*)/ },
  { kind: "class", re: /^\s*(?:(?:public|private|protected|static|final|abstract|sealed)\s+)*(?:class|interface|enum|record|object|trait)\s+([A-Za-z_$][\w$]*)/ },
  // express/fastify style: `proto.route = function route(path) {`, `res.cookie = function (name) {`.
  { kind: "method", re: /^\s*(?:[A-Za-z_$][\w$]*\.)+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?function\b/ },
  // Java/Kotlin/C#: `public int deleteOldSegments() {`, `private List<LogSegment> deletable(`.
  { kind: "method", re: /^\s*(?:(?:public|private|protected|static|final|synchronized|abstract|override|internal)\s+)+(?:[\w<>[\],.?]+\s+)?([A-Za-z_$][\w$]*)\s*\(/ },
  { kind: "method", re: /^\s+(?:public\s+|private\s+|protected\s+|static\s+|async\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^{]+)?\{\s*$/ },
];

const NOT_METHODS = new Set(["if", "for", "while", "switch", "catch", "function", "return", "constructor"]);

/** findDefinitions: the definitions (and test suites) on the given lines, in line order, each name once. */
export function findDefinitions(lines: readonly NumberedLine[]): Definition[] {
  const out: Definition[] = [];
  const seen = new Set<string>();
  for (const { line, text } of lines) {
    for (const { kind, re } of PATTERNS) {
      const m = re.exec(text);
      if (!m) continue;
      const name = m[1]!;
      if (kind === "method" && NOT_METHODS.has(name)) break;
      if (!seen.has(name)) out.push({ name, kind, line });
      seen.add(name);
      break;
    }
  }
  return out;
}
