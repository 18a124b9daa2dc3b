/**
 * Keyword extraction for the demo model: turns a request such as "where is the login handled?"
 * into search terms ("login"), plus the small helpers that derive grep patterns, plural/singular
 * variants and the intent of a prompt (does it ask about tests, config, docs?).
 */

/** English stop words and investigation filler that never make a useful search term. */
const STOP_WORDS = new Set(
  (
    "a an the and or but nor not no yes of in on at to for from by with without into onto about over under " +
    "is are was were be been being am do does did done doing have has had having can could should would will shall may might must " +
    "i me my we us our you your he she it its they them their this that these those there here " +
    "what which who whom whose where when why how whats wheres hows s t don doesn isn aren didn " +
    "please pls thanks thank hi hello hey ok okay " +
    "continue continuing finish finishing keep going go carry resume again rest remaining now investigation investigate investigating " +
    "find finds finding found show tell explain describe look looking search searching locate located list give get see " +
    "handle handled handles handling happen happens happening work works working implemented implement implementation " +
    "defined define definition declared used use uses using called call calls done made make makes " +
    "code codes file files folder folders directory dir project repo repository codebase source sources " +
    "function functions method methods logic part parts place places thing things stuff " +
    "entry point points main path paths line lines number numbers cover covers covering mention mentions mentioned " +
    "also just only all any some every each other more most much many very really exactly actually " +
    "if then else than so as like such via per etc into within across up down out new old " +
    "set sets get gets run runs ran put puts"
  ).split(/\s+/),
);

/** Words that state what kind of file is wanted; kept as keywords only when nothing else is left. */
const INTENT_WORDS = new Set(
  "test tests testing spec specs fixture fixtures config configs configuration configurations setting settings route routes routing doc docs documentation readme".split(
    " ",
  ),
);

const TOKEN = /[A-Za-z_$][\w$.-]*[\w$]|[A-Za-z_$]/g;

/** True for a token written like an identifier (camelCase, snake_case, dotted or with digits). */
function isIdentifier(token: string): boolean {
  return /[a-z][A-Z]|[A-Z]{2,}[a-z]|_|\$|\.|-|\d/.test(token);
}

/**
 * The candidate terms of a text, each once (words sharing a root, like "route" and "routing",
 * once), in the first non-empty tier: identifiers and topical words (identifiers first), else
 * intent words, else past-tense verbs ("loaded", "generated"). Words keep the spelling the person
 * typed; only searches use their root.
 */
function termsOf(text: string): string[] {
  const tiers: string[][] = [[], [], [], []];
  const seen = new Set<string>();
  for (const raw of text.match(TOKEN) ?? []) {
    const ident = isIdentifier(raw);
    const term = ident ? raw : raw.toLowerCase();
    const key = term.toLowerCase();
    if (term.length < 2 || STOP_WORDS.has(key)) continue;
    const root = ident ? key : rootOf(key);
    if (seen.has(root)) continue;
    seen.add(root);
    const tier = ident ? 0 : INTENT_WORDS.has(key) ? 2 : key.length >= 6 && key.endsWith("ed") ? 3 : 1;
    tiers[tier]!.push(term);
  }
  const topical = [...tiers[0]!, ...tiers[1]!];
  // A past-tense verb says what is done to the topic ("where are sessions locked?" → locked): it
  // follows the topical words.
  return topical.length > 0 ? [...topical, ...tiers[3]!] : tiers[2]!.length > 0 ? tiers[2]! : tiers[3]!;
}

/** Endings stripped to find a word's root, each with the shortest root it may leave. */
const SUFFIXES: ReadonlyArray<readonly [string, number]> = [
  ["ations", 5], ["ation", 5], ["ators", 5], ["ator", 5], ["ating", 4], ["ated", 4], ["ates", 4], ["ate", 4],
  ["ions", 5], ["ion", 5], ["ings", 4], ["ing", 4], ["ies", 3], ["ers", 4], ["er", 4], ["ed", 3], ["es", 4], ["s", 3], ["e", 3],
];

/**
 * rootOf: the root a plain lower-case word shares with its variants, for searching only (never
 * shown): route/routes/router/routing → "rout", delete/deleted/deletion → "delet", queries →
 * "query", logging → "log", sessions → "session". Words of three letters or fewer stay whole.
 */
export function rootOf(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 3) return w;
  for (const [suffix, min] of SUFFIXES) {
    if (!w.endsWith(suffix) || w.length - suffix.length < min) continue;
    if (suffix === "s" && /[sui]s$/.test(w)) continue; // class, status, analysis
    let root = w.slice(0, -suffix.length);
    if (suffix === "ies") root += "y";
    // running → run, stopped → stop, logging → log (a doubled final consonant of the ending's join).
    if (/^(ing|ings|ed|er|ers)$/.test(suffix) && /([bdgmnprt])\1$/.test(root)) root = root.slice(0, -1);
    return root;
  }
  return w;
}

/**
 * extractKeywords: the search terms of a prompt, most specific first. Terms quoted with backticks
 * or double quotes win over the rest of the sentence. Plain words are lower-cased; identifiers
 * (camelCase, snake_case, dotted, with digits) keep their spelling. Stop words and filler are
 * dropped; intent words (tests, config, docs…) and past-tense verbs count only when nothing
 * more topical remains. Never throws; returns [] for a greeting or an empty prompt.
 */
export function extractKeywords(prompt: string): string[] {
  if (typeof prompt !== "string") return [];
  const quoted = [...prompt.matchAll(/`([^`\n]+)`|"([^"\n]+)"/g)].map((m) => m[1] ?? m[2] ?? "").join(" ");
  const fromQuotes = termsOf(quoted);
  return fromQuotes.length > 0 ? fromQuotes : termsOf(prompt);
}

/** The singular form of a plain lower-case word ("routes" → "route", "queries" → "query"). */
export function singularOf(word: string): string {
  if (isIdentifier(word) || word.length <= 3) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** True for a root ending in a consonant and "y" (query, entry), whose plural ends in "ies". */
function yRoot(root: string): boolean {
  return root.endsWith("y") && !/[aeiou]y$/.test(root);
}

/**
 * The lower-case spellings that count as the keyword in a text (matched as substrings): an
 * identifier itself; a plain word its root, so "routing" finds route, router and routes (a root
 * like "query" also finds "queries", and "cookies" finds "cookie").
 */
export function keywordVariants(keyword: string): string[] {
  const lower = keyword.toLowerCase();
  if (isIdentifier(keyword)) return [lower];
  const root = rootOf(lower);
  return yRoot(root) ? [root, `${root.slice(0, -1)}ie`] : [root];
}

/** Escapes a literal for use inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The lower-cased root of a keyword (identifiers only lower-cased). */
function stemOf(keyword: string): string {
  return isIdentifier(keyword) ? keyword.toLowerCase() : rootOf(keyword.toLowerCase());
}

/** A grep regex (used case-insensitively) that matches the keyword and its variants. */
export function grepPatternFor(keyword: string): string {
  const stem = stemOf(keyword);
  if (!isIdentifier(keyword) && yRoot(stem)) return `${escapeRegExp(stem.slice(0, -1))}(y|ie)`;
  return escapeRegExp(isIdentifier(keyword) ? keyword : stem);
}

/** The keyword's root for a glob, in lower case and capitalised (`{consum,Consum}`): globs match case. */
export function globWordFor(keyword: string): string {
  const full = stemOf(keyword).replace(/[*?[\]{}!,]/g, "");
  const y = !isIdentifier(keyword) && yRoot(full);
  const stem = y ? full.slice(0, -1) : full;
  const upper = stem.charAt(0).toUpperCase() + stem.slice(1);
  return `${upper === stem ? stem : `{${stem},${upper}}`}${y ? "{y,ie}" : ""}`;
}

/** A glob for `find` that matches file names containing the keyword's root, lower-case or capitalised. */
export function findPatternFor(keyword: string): string {
  return `**/*${globWordFor(keyword)}*`;
}

/** The prompt without its backticked terms: `routing` quoted as the topic is not a wish for config files. */
function intentText(prompt: string): string {
  return prompt.replace(/`[^`\n]*`/g, " ");
}

/** True when the prompt asks about tests, specs or fixtures. */
export function mentionsTests(prompt: string): boolean {
  return /\b(tests?|testing|specs?|fixtures?|vitest|jest|pytest)\b/i.test(intentText(prompt));
}

/** True when the prompt asks about configuration, routes or documentation. */
export function mentionsConfigOrDocs(prompt: string): boolean {
  return /\b(config\w*|settings?|routes?|routing|docs?|documentation|readme)\b/i.test(intentText(prompt));
}

/** True for a follow-up that asks to carry on rather than naming a new topic ("please continue"). */
export function isContinuation(prompt: string): boolean {
  return /\b(continue|finish|go on|keep going|carry on|resume|again|the rest|remaining)\b/i.test(prompt);
}

/**
 * The keywords of the current request; a bare follow-up ("continue", "finish the investigation")
 * takes those of the most recent earlier request that had some.
 */
export function requestKeywords(prompt: string, earlierPrompts: readonly string[]): string[] {
  const own = extractKeywords(prompt);
  if (own.length > 0 || !isContinuation(prompt)) return own;
  for (const earlier of earlierPrompts) {
    const found = extractKeywords(earlier);
    if (found.length > 0) return found;
  }
  return own;
}
