/** The README and docs/ pages link to files and headings that exist (a moved section breaks this test, not a reader's click). */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const pages = ["README.md", ...readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** GitHub's anchor for a heading: lower case, punctuation dropped (hyphens and underscores kept), spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

it("slugs headings as GitHub does", () => {
  expect(slug("Control channel (`ink --mode rpc`)")).toBe("control-channel-ink---mode-rpc");
  expect(slug("Merging the children's branches")).toBe("merging-the-childrens-branches");
});

it.each(pages)("%s: every relative link names a file that exists, and a heading in it", (page) => {
  const text = readFileSync(join(root, page), "utf8").replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const broken: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = m[1]!;
    if (/^[a-z]+:/i.test(link)) continue; // http(s), mailto
    const [path, anchor] = link.split("#") as [string, string | undefined];
    const target = path === "" ? join(root, page) : resolve(dirname(join(root, page)), path);
    if (!existsSync(target)) {
      broken.push(`${link}: no file ${path}`);
      continue;
    }
    if (anchor !== undefined && target.endsWith(".md") && !anchors(target).has(anchor)) broken.push(`${link}: no heading #${anchor} in ${path || page}`);
  }
  expect(broken).toEqual([]);
});
