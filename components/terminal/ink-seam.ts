/**
 * The one place this project reaches into Ink's internals: the shape of its laid-out DOM (node
 * names, child lists, text values, styles, the per-node output transform and the yoga node with
 * its computed layout) and the text wrapping its layout measured with. Everything here is pinned to
 * INK_PINNED; components/terminal/tree-rows.test.tsx fails on another major.minor, naming what to re-check.
 *
 * Taking an Ink upgrade: bump INK_PINNED after checking, against the new Ink's build/, that
 * dom.js still keeps these fields, that render-node-to-output.js still wraps text the way
 * `wrapForLayout` does, and that the parity test (components/terminal/tree-rows.test.tsx) passes.
 */
import type { DOMElement } from "ink";
import cliTruncate from "cli-truncate";
import stringWidth from "string-width";
import wrapAnsi from "wrap-ansi";
import chalk from "chalk";
import { BoundedCache } from "./bounded-cache.js";

/** The Ink major.minor this seam was written and tested against. */
export const INK_PINNED = "6.8";

/** Throws unless `version` (Ink's package.json version) is of the pinned major.minor. */
export function checkInkVersion(version: string): void {
  const [major, minor] = version.split(".");
  if (`${major}.${minor}` !== INK_PINNED) {
    throw new Error(`Ink ${version} is installed, but components/terminal/ink-seam.ts is written against Ink ${INK_PINNED}.x: check the seam against Ink's build/dom.js and render-node-to-output.js, run components/terminal/tree-rows.test.tsx, then update INK_PINNED`);
  }
}

/** A yoga node's computed position and size, as the seam reads it. */
export interface NodeLayout {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A yoga node's computed borders (cells on each side). */
export interface NodeBorders {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

// yoga-layout's enum values (stable across yoga 2/3): Edge Left 0, Top 1, Right 2, Bottom 3; Display None 1.
const EDGE_LEFT = 0;
const EDGE_TOP = 1;
const EDGE_RIGHT = 2;
const EDGE_BOTTOM = 3;
const DISPLAY_NONE = 1;

type Yoga = NonNullable<DOMElement["yogaNode"]>;

/**
 * The position and size of `node`, or undefined when it has no yoga node or is display:none. Its
 * borders and padding are read apart (`bordersOf`, `insetXOf`), only where the frame needs them:
 * each is a call into yoga's WebAssembly, and a frame reads every node of the tree.
 */
export function layoutOf(node: { yogaNode?: Yoga }): NodeLayout | undefined {
  const y = node.yogaNode;
  if (!y || y.getDisplay() === DISPLAY_NONE) return undefined;
  return { left: y.getComputedLeft(), top: y.getComputedTop(), width: y.getComputedWidth(), height: y.getComputedHeight() };
}

/** The computed borders of `node` (none without a yoga node). */
export function bordersOf(node: { yogaNode?: Yoga }): NodeBorders {
  const y = node.yogaNode;
  if (!y) return { left: 0, right: 0, top: 0, bottom: 0 };
  return { left: y.getComputedBorder(EDGE_LEFT), right: y.getComputedBorder(EDGE_RIGHT), top: y.getComputedBorder(EDGE_TOP), bottom: y.getComputedBorder(EDGE_BOTTOM) };
}

/** The columns `node`'s left and right padding and borders take together (none without a yoga node). */
export function insetXOf(node: { yogaNode?: Yoga }): number {
  const y = node.yogaNode;
  if (!y) return 0;
  return y.getComputedPadding(EDGE_LEFT) + y.getComputedPadding(EDGE_RIGHT) + y.getComputedBorder(EDGE_LEFT) + y.getComputedBorder(EDGE_RIGHT);
}

/** The offset of a text node's first child (Ink positions a text's padding by it). */
export function firstChildOffset(node: DOMElement): { x: number; y: number } {
  const y = (node.childNodes[0] as { yogaNode?: Yoga } | undefined)?.yogaNode;
  return y ? { x: y.getComputedLeft(), y: y.getComputedTop() } : { x: 0, y: 0 };
}

/** What a DOM node of Ink's is, for the renderer. */
export type SeamNode = DOMElement | { nodeName: "#text"; nodeValue: string; yogaNode?: Yoga };

/** The text of an ink-text node: its text children concatenated, nested texts transformed (Ink's squashing), only SGR and OSC escapes kept. */
export function textOf(node: DOMElement): string {
  let text = "";
  node.childNodes.forEach((child, index) => {
    const c = child as SeamNode;
    if (c.nodeName === "#text") {
      text += c.nodeValue;
      return;
    }
    let t = c.nodeName === "ink-text" || c.nodeName === "ink-virtual-text" ? textOf(c) : "";
    if (t.length > 0 && typeof c.internal_transform === "function") t = c.internal_transform(t, index);
    text += t;
  });
  return text;
}

/**
 * `text` fitted to `maxWidth` columns the way Ink's layout measured it: wrapped (wrap-ansi, hard,
 * untrimmed) or truncated (cli-truncate), by the node's `textWrap`.
 */
export function wrapForLayout(text: string, maxWidth: number, wrapType: string): string {
  return wrapCache.get(`${maxWidth}\u0000${wrapType}\u0000${text}`, () => wrapNow(text, maxWidth, wrapType));
}

// The texts wrapped lately (a text unchanged between frames is wrapped once), in the one bounded
// cache: keys and values are whole texts (a streaming answer's every length is a new key), so it is
// bounded by the characters it holds as well as by entries.
const wrapCache = new BoundedCache<string, string>(1000, { weigh: (key, wrapped) => key.length + wrapped.length, budget: 200_000 });

/** Characters of the texts the wrap cache holds now (keys and wrapped values, both generations); for tests. */
export const heldWrapChars = () => wrapCache.weight;

function wrapNow(text: string, maxWidth: number, wrapType: string): string {
  if (wrapType === "wrap") return wrapAnsi(text, maxWidth, { trim: false, hard: true });
  if (wrapType.startsWith("truncate")) {
    const position = wrapType === "truncate-middle" ? "middle" : wrapType === "truncate-start" ? "start" : "end";
    return cliTruncate(text, maxWidth, { position });
  }
  return text;
}

/** `text` in `color` (a chalk name, #hex, rgb(r,g,b) or ansi256(n)) as Ink colours borders and backgrounds. */
export function colorize(text: string, color: string | undefined, type: "foreground" | "background"): string {
  if (!color) return text;
  const c = chalk as unknown as Record<string, (s: string) => string>;
  if (color in chalk) return type === "foreground" ? c[color]!(text) : c[`bg${color[0]!.toUpperCase()}${color.slice(1)}`]!(text);
  if (color.startsWith("#")) return type === "foreground" ? chalk.hex(color)(text) : chalk.bgHex(color)(text);
  const ansi = /^ansi256\(\s?(\d+)\s?\)$/.exec(color);
  if (ansi) return type === "foreground" ? chalk.ansi256(Number(ansi[1]))(text) : chalk.bgAnsi256(Number(ansi[1]))(text);
  const rgb = /^rgb\(\s?(\d+),\s?(\d+),\s?(\d+)\s?\)$/.exec(color);
  if (rgb) return type === "foreground" ? chalk.rgb(Number(rgb[1]), Number(rgb[2]), Number(rgb[3]))(text) : chalk.bgRgb(Number(rgb[1]), Number(rgb[2]), Number(rgb[3]))(text);
  return text;
}

/** Dim `text` (Ink's dim borders). */
export const dim = (text: string) => chalk.dim(text);

/** The ink-root above `node` (the laid-out tree Ink renders from). */
export function rootOf(node: DOMElement): DOMElement {
  let root = node;
  while (root.parentNode) root = root.parentNode;
  return root;
}

/**
 * Takes over what Ink does after each React commit: Ink 6.8's reconciler calls the root's
 * `onComputeLayout` (Yoga's layout), then `onRender` (Ink's own, throttled: it draws its Output and
 * hands it to log-update), or `onImmediateRender` when a <Static> child was added. After this,
 * `render` runs in both places instead and Ink draws no frame of its own after a commit (it still
 * does on a resize and at unmount, into a stream that drops it: see frame-owner.tsx). And before
 * each layout, the text nodes Ink made since are given this seam's measure (`adoptTextMeasures`).
 * `laidOut` is told how long each layout took (ms). Returns how to give Ink its own back.
 */
export function takeOverCommits(root: DOMElement, render: { throttled: () => void; immediate: () => void; laidOut?: (ms: number) => void }): () => void {
  const r = root as DOMElement & { onRender?: () => void; onImmediateRender?: () => void; onComputeLayout?: () => void };
  const own = { onRender: r.onRender, onImmediateRender: r.onImmediateRender, onComputeLayout: r.onComputeLayout };
  adoptTextMeasures(root, true);
  r.onComputeLayout = () => {
    const start = performance.now();
    adoptTextMeasures(root, false);
    own.onComputeLayout?.();
    render.laidOut?.(performance.now() - start);
  };
  r.onRender = render.throttled;
  r.onImmediateRender = render.immediate;
  return () => {
    r.onRender = own.onRender;
    r.onImmediateRender = own.onImmediateRender;
    r.onComputeLayout = own.onComputeLayout;
  };
}

/**
 * Yoga asks each ink-text node its size through the measure function Ink's dom.js set on it when
 * it was made (`measureTextNode`: the squashed text, wrapped when wider than the room given, then
 * measured), through Ink's measureText and wrapText, whose caches keep every text they ever saw —
 * memory that only grows in a long session (each second's figures of a child row are new texts).
 * This gives every ink-text node under `root` not given it yet the seam's `measureTextNode` instead:
 * the same answers, from the text the frame is drawn from (`textOf`), wrapped by `wrapForLayout`
 * (so a text is wrapped once for the layout and the frame) and measured from a bounded cache.
 * Made nodes are found below the boxes Yoga marked dirty (inserting a child marks its box and every
 * box above it) and below boxes never seen; `all` walks the whole tree.
 */
function adoptTextMeasures(node: DOMElement, all: boolean): void {
  for (const child of node.childNodes) {
    const c = child as DOMElement;
    if (c.nodeName === "ink-text") {
      if (!adopted.has(c)) {
        c.yogaNode?.setMeasureFunc(measureTextNode.bind(null, c));
        adopted.add(c);
      }
    } else if (c.nodeName === "ink-box" && (all || !adopted.has(c) || c.yogaNode?.isDirty())) {
      adopted.add(c);
      adoptTextMeasures(c, all);
    }
  }
}

/** The ink-text nodes measured by the seam, and the boxes walked. */
const adopted = new WeakSet<DOMElement>();

/** Dimensions of the texts measured lately: two generations of at most 2,000 texts or 200,000 characters (its keys are whole texts). */
const measured = new BoundedCache<string, { width: number; height: number }>(2000, { weigh: (text) => text.length, budget: 200_000 });

/** Texts whose dimensions are held now (both generations); for tests. */
export const measuredTexts = () => measured.size;
/** Characters of the texts whose dimensions are held now (both generations); for tests. */
export const measuredChars = () => measured.weight;

function measure(text: string): { width: number; height: number } {
  if (text.length === 0) return { width: 0, height: 0 };
  return measured.get(text, () => {
    const lines = text.split("\n");
    let width = 0;
    for (const line of lines) width = Math.max(width, stringWidth(line));
    return { width, height: lines.length };
  });
}

/** Ink 6.8's measureTextNode (dom.js), with the seam's text, wrapping and cache. */
function measureTextNode(node: DOMElement, width: number): { width: number; height: number } {
  const text = textOf(node);
  const size = measure(text);
  if (size.width <= width) return size; // fits
  if (size.width >= 1 && width > 0 && width < 1) return size; // Yoga asks whether it fits in under a cell: no
  return measure(wrapForLayout(text, width, node.style?.textWrap ?? "wrap"));
}

/** The <Static> box of the laid-out tree under `root` (Ink keeps it on the root), if any. */
export function staticNodeOf(root: DOMElement): DOMElement | undefined {
  return (root as DOMElement & { staticNode?: DOMElement }).staticNode;
}
