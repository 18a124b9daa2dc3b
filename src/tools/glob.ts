/**
 * Glob → RegExp translation shared by `find`, `grep`'s `glob` filter and `.gitignore` rules.
 * Supported: `*` (anything but `/`), `?` (one char but `/`), `**` (any number of path segments),
 * `[abc]` / `[!a-z]` classes, `{a,b}` alternatives (optional), and `\x` escapes.
 */

export interface GlobOptions {
  /** Expand `{a,b}` alternatives (gitignore syntax has none). Default true. */
  braces?: boolean;
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/;

/** The regular-expression source (unanchored) matching `glob` against a `/`-separated path. */
export function globToRegexSource(glob: string, options: GlobOptions = {}): string {
  const braces = options.braces ?? true;
  let out = "";
  let i = 0;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === "\\" && i + 1 < glob.length) {
      out += escapeChar(glob[i + 1]!);
      i += 2;
    } else if (c === "*") {
      if (glob[i + 1] === "*") {
        const atSegmentStart = i === 0 || glob[i - 1] === "/";
        const next = glob[i + 2];
        if (atSegmentStart && next === "/") {
          out += "(?:.*/)?"; // `**/` : zero or more directories
          i += 3;
        } else if (atSegmentStart && next === undefined) {
          out += ".*"; // trailing `**` : everything below
          i += 2;
        } else {
          out += "[^/]*"; // `a**b` is just a star
          i += 2;
        }
      } else {
        out += "[^/]*";
        i += 1;
      }
    } else if (c === "?") {
      out += "[^/]";
      i += 1;
    } else if (c === "[") {
      const end = classEnd(glob, i);
      if (end < 0) {
        out += "\\[";
        i += 1;
      } else {
        out += classSource(glob.slice(i + 1, end));
        i = end + 1;
      }
    } else if (c === "{" && braces) {
      const alts = braceAlternatives(glob, i);
      if (!alts) {
        out += "\\{";
        i += 1;
      } else {
        out += `(?:${alts.parts.map((p) => globToRegexSource(p, options)).join("|")})`;
        i = alts.end + 1;
      }
    } else {
      out += escapeChar(c);
      i += 1;
    }
  }
  return out;
}

/** A RegExp matching a whole `/`-separated path against `glob`. */
export function globToRegExp(glob: string, options: GlobOptions = {}): RegExp {
  return new RegExp(`^${globToRegexSource(glob, options)}$`);
}

/**
 * A predicate for paths relative to a search root (`/`-separated). A pattern without `/` matches
 * the base name at any depth (`*.ts`); one with `/` matches the whole relative path
 * (`src/**\/*.ts`); a leading `./` or `/` is ignored.
 */
export function createGlobMatcher(pattern: string): (relPath: string) => boolean {
  let p = pattern.trim();
  while (p.startsWith("./")) p = p.slice(2);
  if (p.startsWith("/")) p = p.slice(1);
  if (p.endsWith("/")) p = p.slice(0, -1);
  const re = globToRegExp(p);
  if (!p.includes("/")) {
    return (rel) => re.test(rel.slice(rel.lastIndexOf("/") + 1));
  }
  return (rel) => re.test(rel);
}

function escapeChar(c: string): string {
  return REGEX_SPECIAL.test(c) ? `\\${c}` : c;
}

/** Index of the `]` closing the class opened at `start`, or -1. A leading `]` is literal. */
function classEnd(glob: string, start: number): number {
  let j = start + 1;
  if (glob[j] === "!" || glob[j] === "^") j++;
  if (glob[j] === "]") j++;
  for (; j < glob.length; j++) {
    if (glob[j] === "\\") j++;
    else if (glob[j] === "]") return j;
  }
  return -1;
}

/** Regex source for the body of a `[...]` class; never matches `/`. */
function classSource(body: string): string {
  let negate = false;
  if (body.startsWith("!") || body.startsWith("^")) {
    negate = true;
    body = body.slice(1);
  }
  let inner = "";
  for (let k = 0; k < body.length; k++) {
    const ch = body[k]!;
    if (ch === "\\" && k + 1 < body.length) {
      inner += `\\${body[++k]}`;
    } else if (ch === "\\" || ch === "]" || ch === "[" || ch === "^") {
      inner += `\\${ch}`;
    } else {
      inner += ch;
    }
  }
  return negate ? `(?!/)[^${inner}]` : `(?!/)[${inner}]`;
}

/** The top-level comma-separated parts of the `{...}` group opened at `start`, or null. */
function braceAlternatives(glob: string, start: number): { parts: string[]; end: number } | null {
  let depth = 0;
  let partStart = start + 1;
  const parts: string[] = [];
  for (let j = start; j < glob.length; j++) {
    const ch = glob[j];
    if (ch === "\\") {
      j++;
    } else if (ch === "{") {
      depth++;
    } else if (ch === "}") {
      depth--;
      if (depth === 0) {
        parts.push(glob.slice(partStart, j));
        return parts.length > 1 ? { parts, end: j } : null;
      }
    } else if (ch === "," && depth === 1) {
      parts.push(glob.slice(partStart, j));
      partStart = j + 1;
    }
  }
  return null;
}
