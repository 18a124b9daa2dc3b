/**
 * Provider registry: picks the provider for a run. `anthropic` when ANTHROPIC_API_KEY is set (or
 * asked for), otherwise the offline `demo` model, so Ink always starts. The Anthropic SDK is loaded
 * only when that provider is used, keeping start-up fast.
 */
import { anthropicKeySet } from "./anthropic-key.js";
import { createDemoProvider } from "./demo.js";
import { isModelAlias, resolveModelAlias } from "../protocol/model-catalog.js";
import { PROVIDER_NAMES, type Provider } from "../protocol/provider.js";

export { PROVIDER_NAMES };

/** Thrown for a provider that cannot be used, with the fix in the message. */
export class ProviderSetupError extends Error {
  override readonly name = "ProviderSetupError";
}


/** Throws ProviderSetupError (naming the value and the fix) when `value` is set but not an http(s) URL. */
export function checkBaseUrl(value: string | undefined): void {
  const v = value?.trim() ?? "";
  if (v === "") return;
  let protocol = "";
  try {
    protocol = new URL(v).protocol;
  } catch {
    // reported below
  }
  if (protocol !== "http:" && protocol !== "https:") {
    throw new ProviderSetupError(`ANTHROPIC_BASE_URL=${JSON.stringify(value)} is not an http(s) URL; set it to the endpoint, e.g. https://api.anthropic.com or http://127.0.0.1:8080, or unset it.`);
  }
}

/**
 * The provider and model for a run. `name` undefined = anthropic when a key is set, else demo; a
 * model alias (`opus`, …) becomes the newest id of its line the provider serves (its model list,
 * cached in `opts.inkHome`, else the offline table). `opts.defaultEffort`: see AnthropicProviderOptions.
 * Rejects with ProviderSetupError for an unknown name, anthropic without a key, or a malformed
 * ANTHROPIC_BASE_URL.
 */
export async function resolveProvider(name?: string, model?: string, opts: { inkHome?: string; interactive?: boolean; defaultEffort?: string } = {}): Promise<{ provider: Provider; model: string }> {
  const chosen = name ?? (anthropicKeySet() ? "anthropic" : "demo");
  let provider: Provider;
  if (chosen === "demo") provider = createDemoProvider();
  else if (chosen === "anthropic") {
    if (!anthropicKeySet()) throw new ProviderSetupError("--provider anthropic needs ANTHROPIC_API_KEY: export ANTHROPIC_API_KEY=sk-ant-... (and ANTHROPIC_BASE_URL for a compatible server), or use --provider demo.");
    checkBaseUrl(process.env.ANTHROPIC_BASE_URL);
    const { createAnthropicProvider } = await import("./anthropic.js");
    provider = createAnthropicProvider({ ...(opts.inkHome ? { inkHome: opts.inkHome } : {}), ...(opts.defaultEffort ? { defaultEffort: opts.defaultEffort } : {}) });
  } else throw new ProviderSetupError(`unknown provider "${chosen}"; choose one of: ${PROVIDER_NAMES.join(", ")}.`);
  // An alias waits for the provider's list only when none is cached: a cached one, even stale,
  // serves at once (a stale one is fetched again in the background for the next run, if it arrives before the run ends); otherwise
  // an interactive session fetches it in the background, for /model, aliases and warnings later.
  if (model !== undefined && isModelAlias(model) && provider.modelCatalog?.() === undefined) await provider.refreshModels?.();
  else if (opts.interactive || (model !== undefined && isModelAlias(model))) void provider.refreshModels?.();
  const chosenModel = model ?? provider.defaultModel;
  return { provider, model: resolveModelAlias(chosenModel, provider.modelCatalog?.()?.models) };
}
