import { mkdtempSync, rmSync } from "node:fs";
import { writeTree } from "../tools/context.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolCallsOf, type AgentMessage, type AssistantMessage, type ToolResult } from "../../src/protocol/messages.js";
import { createDemoProvider } from "../../src/providers/demo.js";
import { findTool, grepTool, lsTool, readTool } from "../../src/tools/index.js";
import { toToolSpec } from "../../src/tools/spec.js";
import type { AnyTool } from "../../src/protocol/tool.js";

const tools: AnyTool[] = [readTool, grepTool, findTool, lsTool];
let cwd = "";

/** A minimal driver: call the demo, run its calls with the real tools, repeat until it answers. */
async function investigate(prompt: string): Promise<{ history: AgentMessage[]; final: AssistantMessage }> {
  const provider = createDemoProvider({ delayMs: 0 });
  const history: AgentMessage[] = [{ role: "user", content: prompt }];
  for (let turn = 0; turn < 6; turn++) {
    const message = await provider.stream({ system: "test", messages: history, tools: tools.map(toToolSpec), model: "demo", maxTokens: 1000 }).result();
    history.push(message);
    const calls = toolCallsOf(message);
    if (calls.length === 0) return { history, final: message };
    const results: ToolResult[] = [];
    for (const call of calls) {
      const tool = tools.find((t) => t.name === call.name)!;
      const out = await tool.execute(tool.schema.parse(call.arguments), { signal: new AbortController().signal, cwd, toolCallId: call.id });
      results.push({ toolCallId: call.id, toolName: call.name, content: out.output, isError: out.isError });
    }
    history.push({ role: "toolResult", results });
  }
  throw new Error("the demo never answered");
}

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), "ink-demo-"));
  const files: Record<string, string> = {
    "src/auth/login.ts": "import { check } from './check.js';\n\nexport function handleLogin(user: string): boolean {\n  return check(user);\n}\n",
    "src/server.ts": "import { handleLogin } from './auth/login.js';\n\nexport function start() {\n  handleLogin('me');\n}\n",
    "test/auth/login.test.ts": "import { handleLogin } from '../../src/auth/login.js';\n\ntest('login', () => handleLogin('x'));\n",
    "package-lock.json": '{ "login": "1.0.0" }\n',
  };
  writeTree(cwd, files);
});

afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe("demo provider with the real read/grep/find tools", () => {
  it("finds, reads and reports where the login is handled", async () => {
    const { history, final } = await investigate("where is the login handled?");
    const reads = history.flatMap((m) => (m.role === "assistant" ? toolCallsOf(m) : [])).filter((c) => c.name === "read");
    expect(reads[0]?.arguments.path).toBe("src/auth/login.ts");
    const text = final.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(text).toContain("`handleLogin` (function, line 3)");
    expect(text.trim().split("\n").pop()).toBe("**Conclusion:** the code for `login` is in `src/auth/login.ts` (`handleLogin`, line 3).");
  });

  it("reports clearly when nothing matches", async () => {
    const { final } = await investigate("where is the frobnicator configured?");
    const text = final.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(text).toMatch(/found nothing matching `frobnicator`/);
  });
});
