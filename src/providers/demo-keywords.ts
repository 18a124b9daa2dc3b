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
    "if then else than so as like such via per etc into within across up down out new old"
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
 * The candidate terms of a text, each once, in the first non-empty tier: identifiers and topical
 * words (identifiers first), else intent words, else past-tense verbs ("loaded", "generated").
 */
function termsOf(text: string): string[] {
  const tiers: string[][] = [[], [], [], []];
  const seen = new Set<string>();
  for (const raw of text.match(TOKEN) ?? []) {
    const ident = isIdentifier(raw);
    const term = ident ? raw : raw.toLowerCase();
    const key = term.toLowerCase();
    if (term.length < 2 || seen.has(key) || STOP_WORDS.has(key)) continue;
    seen.add(key);
    const tier = ident ? 0 : INTENT_WORDS.has(key) ? 2 : key.length >= 6 && key.endsWith("ed") ? 3 : 1;
    tiers[tier]!.push(term);
  }
  const topical = [...tiers[0]!, ...tiers[1]!];
  // A past-tense verb says what is done to the topic ("where are sessions locked?" → lock): its stem
  // follows the topical words.
  const verbs = tiers[3]!.map(verbStem).filter((v) => v.length >= 3 && !seen.has(`stem:${v}`) && !topical.includes(v));
  return topical.length > 0 ? [...topical, ...new Set(verbs)] : tiers[2]!.length > 0 ? tiers[2]! : tiers[3]!;
}

/** "locked" → "lock", "stopped" → "stop", "cached" → "cach" (a prefix of "cache"; searches match substrings). */
function verbStem(word: string): string {
  const base = word.slice(0, -2);
  return /([b-df-hj-np-tv-z])\1$/.test(base) ? base.slice(0, -1) : base;
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

/** The spellings worth matching for a keyword: itself, its singular and its plural, lower-cased. */
export function keywordVariants(keyword: string): string[] {
  const lower = keyword.toLowerCase();
  if (isIdentifier(keyword)) return [lower];
  const singular = singularOf(lower);
  const plural = singular.endsWith("y") && !/[aeiou]y$/.test(singular) ? `${singular.slice(0, -1)}ies` : `${singular}s`;
  return [...new Set([lower, singular, plural])];
}

/** Escapes a literal for use inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The lower-cased singular stem of a keyword (identifiers only lower-cased). */
function stemOf(keyword: string): string {
  return isIdentifier(keyword) ? keyword.toLowerCase() : singularOf(keyword.toLowerCase());
}

/** A grep regex that matches the keyword and its plural/singular forms. */
export function grepPatternFor(keyword: string): string {
  const stem = stemOf(keyword);
  if (!isIdentifier(keyword) && stem.endsWith("y") && !/[aeiou]y$/.test(stem)) return `${escapeRegExp(stem.slice(0, -1))}(y|ies)`;
  return escapeRegExp(isIdentifier(keyword) ? keyword : stem);
}

/** A glob for `find` that matches file names containing the keyword's singular form. */
export function findPatternFor(keyword: string): string {
  return `**/*${stemOf(keyword).replace(/[*?[\]{}]/g, "")}*`;
}

/** True when the prompt asks about tests, specs or fixtures. */
export function mentionsTests(prompt: string): boolean {
  return /\b(tests?|testing|specs?|fixtures?|vitest|jest|pytest)\b/i.test(prompt);
}

/** True when the prompt asks about configuration, routes or documentation. */
export function mentionsConfigOrDocs(prompt: string): boolean {
  return /\b(config\w*|settings?|routes?|routing|docs?|documentation|readme)\b/i.test(prompt);
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
