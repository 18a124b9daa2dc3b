import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { runPrintMode } from "../../src/cli/print-mode.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

async function stderrOf(calls: Array<Record<string, unknown>>): Promise<string> {
  const provider = createScriptedProvider((r) => {
    if (isChild(r)) return { text: "report" };
    return r.messages.length === 1 ? { toolCalls: calls.map((args, i) => ({ id: `t${i}`, name: "task", arguments: args })) } : { text: "merged" };
  });
  const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: false, approval: {} });
  const stderr: string[] = [];
  const stdout: string[] = [];
  await runPrintMode(session, "go", { json: false, signal: new AbortController().signal, io: { stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t) } });
  // Print mode never rings the terminal (no BEL, no OSC notification), whatever the settings say.
  expect(stdout.join("") + stderr.join("")).not.toMatch(/\u0007|\u001b\]/);
  return stderr.join("");
}

describe("print mode names each child by its description", () => {
  it("on its start and finish lines; without one, by the prompt's first words", async () => {
    const err = await stderrOf([{ prompt: "Look at src/auth and say where login is", description: "find the login handler" }, { prompt: "Audit the session store for torn writes" }]);
    expect(err).toMatch(/▶ started general · find the login handler \[\S+\]: Look at src\/auth/);
    expect(err).toMatch(/■ finished general · find the login handler \[\S+\]: ok/);
    expect(err).toMatch(/▶ started general · Audit the session store for \[\S+\]/);
    expect(err).toMatch(/■ finished general · Audit the session store for \[\S+\]: ok/);
  });
});
