/**
 * What `/model` with no argument shows: the session's model, then the models the provider lists
 * (fetched when the cached list is missing or old), the current one marked, each alias beside the
 * id it stands for; without a list, the offline aliases and why there is no list.
 */
import { CLAUDE_MODEL_ALIASES, catalogAge, resolveModelAlias } from "../protocol/model-catalog.js";
import type { Provider } from "../protocol/provider.js";

/** The lines of the `/model` listing for `provider`, the session running `current`. */
export async function modelListing(provider: Provider, current: string, now: number = Date.now()): Promise<string[]> {
  const head = `model: ${current} (${provider.name}) — /model <name or alias> switches it for the next turns`;
  const catalog = await provider.refreshModels?.();
  const aliases = Object.keys(CLAUDE_MODEL_ALIASES);
  if (!catalog || catalog.models.length === 0) {
    const why = provider.refreshModels ? "the provider gave no model list (offline, or a server without GET /v1/models)" : `the ${provider.name} provider has no model list`;
    return [head, `${why}; aliases from Ink's offline table: ${aliases.map((a) => `${a} → ${CLAUDE_MODEL_ALIASES[a]}`).join(", ")}`];
  }
  const aliasOf = new Map<string, string[]>();
  for (const alias of aliases) {
    const id = resolveModelAlias(alias, catalog.models);
    if (catalog.models.some((m) => m.id === id)) aliasOf.set(id, [...(aliasOf.get(id) ?? []), alias]);
  }
  const rows = catalog.models.map((m) => {
    const names = aliasOf.get(m.id);
    return `${m.id === current ? "▸" : " "} ${m.id}${names ? `  (${names.join(", ")})` : ""}`;
  });
  return [head, `${catalog.models.length} models served by ${catalog.source} (list ${catalogAge(catalog, now)} old):`, ...rows];
}
