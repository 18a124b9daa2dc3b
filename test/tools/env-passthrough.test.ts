import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";

const saved = { key: process.env.ANTHROPIC_API_KEY, other: process.env.INK_TEST_SERVICE_TOKEN };
afterEach(() => {
  for (const [name, value] of [["ANTHROPIC_API_KEY", saved.key], ["INK_TEST_SERVICE_TOKEN", saved.other]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** Runs `printenv` through the session's bash tool and returns its output. */
async function printenvThroughSession(inkHome: string): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), "ink-env-cwd-"));
  const session = new AgentSession({ cwd, inkHome, provider: createScriptedProvider([]), model: "m", interactive: false, approval: { yolo: true }, persist: false });
  const bash = session.tools.find((t) => t.name === "bash")!;
  const result = await bash.execute({ command: "printenv INK_TEST_SERVICE_TOKEN; printenv ANTHROPIC_API_KEY; echo done" } as never, { cwd, signal: new AbortController().signal } as never);
  session.close();
  return result.output;
}

describe("envPassthrough setting", () => {
  it("tools never see secret-looking variables unless the user's settings pass them through", async () => {
    process.env.ANTHROPIC_API_KEY = "sk-ant-secret-value";
    process.env.INK_TEST_SERVICE_TOKEN = "token-value-42";
    const plain = mkdtempSync(join(tmpdir(), "ink-env-home-"));
    const without = await printenvThroughSession(plain);
    expect(without).toContain("done");
    expect(without).not.toContain("token-value-42");
    expect(without).not.toContain("sk-ant-secret-value");

    const passing = mkdtempSync(join(tmpdir(), "ink-env-home-"));
    writeFileSync(join(passing, "settings.json"), JSON.stringify({ envPassthrough: ["INK_TEST_*"] }));
    const withSetting = await printenvThroughSession(passing);
    expect(withSetting).toContain("token-value-42");
    expect(withSetting).not.toContain("sk-ant-secret-value");
  });
});
