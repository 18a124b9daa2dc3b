import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";

describe("unknown agent in an untrusted project", () => {
  it("tells the model the project's profiles exist but are not trusted, and never invites it to create profile files", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "ink-untrusted-roster-"));
    mkdirSync(join(cwd, ".ink", "agents"), { recursive: true });
    writeFileSync(join(cwd, ".ink", "agents", "scout.md"), "---\nname: scout\ndescription: reads\n---\nRead only.\n");
    const provider = createScriptedProvider((r) => (r.messages.length === 1 ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "look", agent: "scout" } }] } : { text: "ok" }));
    const session = new AgentSession({ cwd, inkHome: mkdtempSync(join(tmpdir(), "ink-home-")), provider, model: "m", interactive: false, approval: {}, persist: false });
    await session.prompt("go");
    session.close();
    const results = provider.requests.at(-1)!.messages.find((m): m is ToolResultMessage => m.role === "toolResult")!;
    const text = JSON.stringify(results);
    expect(text).toContain('unknown agent \\"scout\\"');
    expect(text).toContain("1 agent profile file that were not loaded because the project is not trusted");
    expect(text).toContain("--trust");
    expect(text).not.toContain("create .ink/agents");
  });
});
