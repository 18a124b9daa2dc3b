/** Reading a provider stream to its end in provider tests. */
import type { ProviderError } from "../../src/protocol/provider-error.js";
import type { ModelRequest, ProviderEvent, ProviderStream, RetryEvent } from "../../src/protocol/provider.js";

/** A one-message request to the fake server. */
export const oneLineRequest: ModelRequest = { system: "sys", messages: [{ role: "user", content: "hi" }], tools: [], model: "claude-test", maxTokens: 100 };

/** Every event of `stream`, then its answer's text or the error it ended with. */
export async function drain(stream: ProviderStream): Promise<{ events: ProviderEvent[]; error?: ProviderError; text?: string }> {
  const events: ProviderEvent[] = [];
  for await (const e of stream) events.push(e);
  return stream.result().then(
    (m) => ({ events, text: m.content.map((b) => (b.type === "text" ? b.text : "")).join("") }),
    (error: ProviderError) => ({ events, error }),
  );
}

/** The `retry` events among `events`. */
export const retries = (events: ProviderEvent[]) => events.filter((e): e is RetryEvent => e.type === "retry");
