/**
 * Where a worker-thread entry module lives. From the built dist (or a bundle that emits the entry
 * beside this code) it is the compiled sibling `<name>.js`. When the code runs from TypeScript
 * sources (vitest), Node cannot start a `.ts` worker, so the entry and its relative imports are
 * transpiled once with the `typescript` dev dependency into a temp directory keyed by their content.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const cache = new Map<string, Promise<URL>>();

/** The URL to start worker entry `name` (e.g. `"search-worker"`) from. Rejects naming the missing file. */
export function workerEntryUrl(name: string): Promise<URL> {
  let url = cache.get(name);
  if (!url) {
    url = locate(name);
    cache.set(name, url);
    url.catch(() => cache.delete(name));
  }
  return url;
}

async function locate(name: string): Promise<URL> {
  const built = join(here, `${name}.js`);
  if (existsSync(built)) return pathToFileURL(built);
  const source = join(here, `${name}.ts`);
  if (!existsSync(source)) throw new Error(`the worker file ${built} is missing; rebuild Ink (npm run build)`);
  return pathToFileURL(await transpileTree(name));
}

/** Transpiles `<name>.ts` and the sibling modules it imports (`./x.js`) into a temp dir; returns the entry's path. */
async function transpileTree(name: string): Promise<string> {
  const ts = (await import("typescript")).default;
  const sources = new Map<string, string>();
  const pending = [name];
  while (pending.length > 0) {
    const mod = pending.pop()!;
    if (sources.has(mod)) continue;
    const text = readFileSync(join(here, `${mod}.ts`), "utf8");
    sources.set(mod, text);
    for (const m of text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+["']\.\/([\w.-]+)\.js["']/gm)) pending.push(m[1]!);
  }
  const hash = createHash("sha256");
  for (const [mod, text] of [...sources].sort()) hash.update(`${mod}\0${text}\0`);
  const dir = join(tmpdir(), `ink-worker-${hash.digest("hex").slice(0, 16)}`);
  mkdirSync(dir, { recursive: true });
  const put = (file: string, text: string) => {
    const path = join(dir, file);
    if (existsSync(path)) return;
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, text);
    renameSync(temp, path); // atomic: parallel test processes never see half a file
  };
  put("package.json", '{"type":"module"}\n');
  for (const [mod, text] of sources) {
    const out = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false } });
    put(`${mod}.js`, out.outputText);
  }
  return join(dir, `${name}.js`);
}
