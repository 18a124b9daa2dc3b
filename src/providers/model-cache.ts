/**
 * The cache of providers' model lists: `$INK_HOME/cache/models.json`, one entry per API base URL,
 * each with the time it was fetched (a list older than MODEL_CACHE_MAX_AGE_MS is fetched again).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ModelCatalog } from "../protocol/model-catalog.js";

/** Where the cached lists live under Ink's home (`$INK_HOME`). */
export function modelCachePath(inkHome: string): string {
  return join(inkHome, "cache", "models.json");
}

/** The cached list for `source`, whatever its age; undefined when there is none or the file is unreadable. */
export function readModelCache(source: string, inkHome: string): ModelCatalog | undefined {
  try {
    const all = JSON.parse(readFileSync(modelCachePath(inkHome), "utf8")) as Record<string, ModelCatalog>;
    const entry = all[source];
    if (!entry || !Array.isArray(entry.models) || typeof entry.fetchedAt !== "number") return undefined;
    return { source, fetchedAt: entry.fetchedAt, models: entry.models.filter((m) => typeof m?.id === "string") };
  } catch {
    return undefined;
  }
}

/** Saves `catalog` beside the other sources' lists (atomically). A failure to write is ignored: the cache only saves a request. */
export function writeModelCache(catalog: ModelCatalog, inkHome: string): void {
  const path = modelCachePath(inkHome);
  try {
    let all: Record<string, ModelCatalog> = {};
    try {
      all = JSON.parse(readFileSync(path, "utf8")) as Record<string, ModelCatalog>;
    } catch {
      // none yet, or unreadable: start afresh
    }
    all[catalog.source] = catalog;
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(all, null, 2));
    renameSync(tmp, path);
  } catch {
    // unwritable INK_HOME: the list is fetched again next time
  }
}

