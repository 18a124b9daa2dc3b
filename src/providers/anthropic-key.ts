/** Whether an Anthropic API key is configured — kept apart from anthropic.ts so checking it never loads the SDK. */

/** True when ANTHROPIC_API_KEY is set (non-empty after trimming). */
export function anthropicKeySet(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.ANTHROPIC_API_KEY ?? "").trim() !== "";
}
