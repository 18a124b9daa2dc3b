import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

// Issue #36 item 5 through a whole session (settings file, hooks, checkpoints: every wrapper the
// session puts around its approval policy), in yolo: grep/find/ls must not show what read refuses.
describe("a session's grep, find and ls honour its Read deny rules", () => {
  it("grep over the project skips .env, .env.local and the secrets dir; find and ls leave their names out", async () => {
    const cwd = temp("ink-cwd-");
    const inkHome = temp("ink-home-");
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ permissions: { deny: ["Read(./.env)", "Read(./.env.*)", "Read(./**/secrets/**)"] } }));
    writeFileSync(join(cwd, ".env"), "SECRET=env-value\n");
    writeFileSync(join(cwd, ".env.local"), "SECRET=local-value\n");
    mkdirSync(join(cwd, "secrets"));
    writeFileSync(join(cwd, "secrets", "server.pem"), "SECRET pem-value\n");
    writeFileSync(join(cwd, "secrets", "token.txt"), "SECRET=token-value\n");
    writeFileSync(join(cwd, "app.ts"), "const SECRET_NAME = 'ok';\n");
    const calls = [
      { id: "g", name: "grep", arguments: { pattern: "SECRET", path: "." } },
      { id: "f", name: "find", arguments: { pattern: "**" } },
      { id: "l", name: "ls", arguments: { path: "secrets" } },
      { id: "r", name: "read", arguments: { path: ".env.local" } },
    ];
    const provider = createScriptedProvider((r) => (r.messages.length === 1 ? { toolCalls: calls } : { text: "done" }));
    const session = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: false, approval: { yolo: true } });
    await session.prompt("look for secrets");
    const results = (session.history.find((m) => m.role === "toolResult") as ToolResultMessage).results;
    const byId = (id: string) => results.find((x) => x.toolCallId === id)!.content;
    // The listing itself, without the closing note (which names the rules, never a file or its content).
    const body = (id: string) => byId(id).split("\n\n[not ")[0]!;
    expect(byId("g")).toContain("app.ts:1:");
    expect(byId("g")).not.toMatch(/env-value|local-value|pem-value|token-value/);
    expect(body("g")).toBe("app.ts:1: const SECRET_NAME = 'ok';");
    expect(byId("g")).toContain("not searched: 4 file(s) a deny rule covers");
    expect(body("f")).toBe("app.ts");
    expect(byId("f")).toContain("not listed: 4 file(s)");
    expect(byId("l")).not.toMatch(/server\.pem|token\.txt/);
    expect(byId("l")).toContain("not listed: 2 file(s)");
    expect(byId("r")).toMatch(/denied by the rule Read\(\.\/\.env\.\*\)/);
  });
});
