import { describe, expect, it } from "vitest";
import { runAgentLoop } from "../../src/core/loop.js";
import type { AgentMessage } from "../../src/protocol/messages.js";
import type { AnyTool } from "../../src/protocol/tool.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { echoTool } from "../helpers/fake-tools.js";

describe("the tool list of each request", () => {
  it("is the pool as it is at that request: a server's tools that appeared mid-run are advertised, a dead one's are not", async () => {
    const late = { ...echoTool, name: "mcp__db__query", description: "query" } as AnyTool;
    const dying = { ...echoTool, name: "mcp__old__ping", description: "ping" } as AnyTool;
    const pool: AnyTool[] = [echoTool, dying];
    const provider = createScriptedProvider((r) => {
      if (r.messages.length === 1) {
        // While the first turn runs, one server dies and another finishes starting (the session splices its pool in place).
        pool.splice(pool.indexOf(dying), 1, late);
        return { toolCalls: [{ name: "echo", arguments: { text: "x" } }] };
      }
      return { text: "done" };
    });
    const history: AgentMessage[] = [];
    await runAgentLoop({ provider, model: "m", system: "s", cwd: process.cwd(), tools: pool, history, userMessage: "go" });
    expect(provider.requests[0]!.tools.map((t) => t.name)).toEqual(["echo", "mcp__old__ping"]);
    expect(provider.requests[1]!.tools.map((t) => t.name)).toEqual(["echo", "mcp__db__query"]);
  });
});
