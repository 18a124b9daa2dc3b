/** The environment tools' processes get: the provider's keys and other secrets removed. */

/** Names that look like secrets (provider keys, tokens). */
export const SECRET = /^(ANTHROPIC_API_KEY|ANTHROPIC_AUTH_TOKEN|.*_API_KEY|.*_TOKEN|.*_SECRET|.*_SECRET_KEY)$/i;

/** `env` without secret-looking variables, except names matching `passthrough` (`*` wildcards). */
export function toolEnv(env: NodeJS.ProcessEnv = process.env, passthrough: readonly string[] = []): NodeJS.ProcessEnv {
  const keep = passthrough.map((p) => new RegExp(`^${p.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`));
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!SECRET.test(k) || keep.some((r) => r.test(k))) out[k] = v;
  return out;
}
