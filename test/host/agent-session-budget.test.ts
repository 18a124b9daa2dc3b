/** The session tree's budget (settings maxTokens / maxCostUsd) over the main agent and its children (issue #25 item 2). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import type { ScriptedTurn } from "../../src/providers/scripted.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { SettingsError } from "../../src/settings/settings.js";
import { isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const usage = { input: 500, output: 100 };
/** Main: delegates once, then answers. Child: echo twice, then reports. Every turn spends 600 tokens. */
function script(r: ModelRequest): ScriptedTurn {
  const turn = r.messages.filter((m) => m.role === "assistant").length + 1;
  if (isChild(r)) return turn >= 3 ? { text: "CHILD REPORT", usage } : { toolCalls: [{ name: "read", arguments: { path: "." } }], usage };
  return r.messages.at(-1)!.role === "user" ? { toolCalls: [{ id: `t${turn}`, name: "task", arguments: { prompt: "look" } }], usage } : { text: "MAIN DONE", usage };
}

function session(settings: object, s = script) {
  const inkHome = temp("ink-home-");
  writeFileSync(join(inkHome, "settings.json"), JSON.stringify(settings));
  const provider = createScriptedProvider(s);
  return new AgentSession({ cwd: temp("ink-cwd-"), inkHome, provider, model: provider.defaultModel, interactive: false, approval: { yolo: true } });
}

describe("the session tree's budget", () => {
  it("headless: counts the main agent and its children, stops the child and then the main agent when reached", async () => {
    const s = session({ maxTokens: 1500 });
    const events: AgentEvent[] = [];
    const result = await s.prompt("go", { onEvent: (e) => events.push(e) });
    // main 600 + child 600 = 1200: one more 600-token request would cross 1500, so the child's second request and the main agent's second are not sent.
    expect(s.treeBudget.meter.tokens).toBe(1200);
    expect(result.reason).toBe("aborted");
    const taskEnd = events.find((e) => e.type === "tool_end" && e.call.name === "task") as Extract<AgentEvent, { type: "tool_end" }>;
    // The next request is estimated as it will be sent: the last reply's 600 tokens plus the tool result since.
    expect(taskEnd.result.content).toMatch(/\[task\] stopped: the session's budget of 1\.5k tokens would be crossed by the next request \(about 7\d\d tokens; 1\.2k tokens spent\) after 1 turn\./);
    const warning = events.find((e) => e.type === "warning" && e.source === "budget") as Extract<AgentEvent, { type: "warning" }>;
    expect(warning.message).toMatch(/the session's budget of 1\.5k tokens would be crossed by the next request \(about \d+ tokens; 1\.2k tokens spent\): the main agent stopped/);
    expect(s.history.at(-1)!.role).toBe("toolResult"); // the history stays valid for the next prompt
    s.close();
  });

  it("asks once when someone can answer; an extension lets every agent go on", async () => {
    const s = session({ maxTokens: "1.5k" });
    let asked = 0;
    s.setBudgetAsk(async (q) => {
      asked++;
      expect(q.scope).toBe("tree");
      return { add: 10_000 };
    });
    const result = await s.prompt("go");
    expect(result.reason).toBe("done");
    expect(asked).toBe(1);
    expect(s.history.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "MAIN DONE" }] });
    s.close();
  });

  it("a stop answered in one run does not hold for the next prompt: it asks again", async () => {
    const s = session({ maxTokens: 500 });
    const answers: Array<"stop" | { add: number }> = ["stop", { add: 100_000 }];
    let asked = 0;
    s.setBudgetAsk(async () => {
      asked++;
      return answers.shift()!;
    });
    // 600 spent by the main agent's first turn: its child's first request asks; "stop" holds for the main agent's next request too.
    expect((await s.prompt("go")).reason).toBe("aborted");
    expect(asked).toBe(1);
    // The next prompt asks again (extended this time) and runs to its end.
    expect((await s.prompt("go again")).reason).toBe("done");
    expect(asked).toBe(2);
    s.close();
  });

  it("a cost budget with a main model that has no price says so at start; the config report lists both keys", async () => {
    const s = session({ maxCostUsd: "$5" });
    expect(s.notices.join("\n")).toMatch(/settings \(.*settings\.json\): maxCostUsd needs a model with a known price, and "scripted-model" has none .*; only priced usage counts toward it, and a child on a model without a price is not started/);
    expect(s.treeBudget.view()).toEqual({ text: "$0.00 / $5.00", reached: false });
    s.close();
    const { SETTING_DEFAULTS } = await import("../../src/settings/config-report.js");
    expect(Object.keys(SETTING_DEFAULTS)).toEqual(expect.arrayContaining(["maxTokens", "maxCostUsd"]));
  });

  it("under a cost budget a child on a model without a price is refused before it starts, naming the model and the fix; a priced child runs", async () => {
    const inkHome = temp("ink-home-");
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ maxCostUsd: 5 }));
    const childModels: string[] = [];
    const provider = createScriptedProvider(
      (r) => {
        if (isChild(r)) {
          childModels.push(r.model);
          return { text: "CHILD REPORT", usage };
        }
        return r.messages.at(-1)!.role === "user"
          ? {
              toolCalls: [
                { id: "odd", name: "task", arguments: { prompt: "look", model: "odd-model" } },
                { id: "priced", name: "task", arguments: { prompt: "look" } },
              ],
              usage,
            }
          : { text: "MAIN DONE", usage };
      },
      { model: "claude-sonnet-4-5" },
    );
    const s = new AgentSession({ cwd: temp("ink-cwd-"), inkHome, provider, model: provider.defaultModel, interactive: false, approval: { yolo: true } });
    const events: AgentEvent[] = [];
    await s.prompt("go", { onEvent: (e) => events.push(e) });
    const ends = new Map(events.filter((e): e is Extract<AgentEvent, { type: "tool_end" }> => e.type === "tool_end").map((e) => [e.call.id, e.result]));
    expect(ends.get("odd")).toMatchObject({ isError: true, content: expect.stringContaining(`the session's cost budget (settings maxCostUsd) needs a model with a known price, and "odd-model" has none`) });
    expect(ends.get("odd")!.content).toContain("run the child on a model with a known price (the model argument)");
    expect(ends.get("priced")).toMatchObject({ isError: false });
    expect(childModels).toEqual(["claude-sonnet-4-5"]);
    s.close();
  });

  it.each([
    [{ maxTokens: -1 }, '"maxTokens": -1 must be more than 0'],
    [{ maxCostUsd: "lots" }, '"maxCostUsd": "lots" is not an amount'],
  ])("refuses a bad settings value %j naming the file and the fix", (settings, message) => {
    expect(() => session(settings)).toThrow(SettingsError);
    expect(() => session(settings)).toThrow(message);
  });
});
