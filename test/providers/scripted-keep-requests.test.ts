import { describe, expect, it } from "vitest";
import { runAgentLoop } from "../../src/core/loop.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";

describe("scripted provider keepRequests", () => {
  it("records every request by default and none with keepRequests: false", async () => {
    for (const keep of [undefined, false] as const) {
      const provider = createScriptedProvider([{ text: "hi" }], { keepRequests: keep });
      await runAgentLoop({ provider, model: "m", system: "s", tools: [], history: [], userMessage: "go", cwd: "/" });
      expect(provider.requests.length).toBe(keep === false ? 0 : 1);
    }
  });
});
