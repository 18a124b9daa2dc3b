import { tmpdir } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runToolCalls } from "../../src/core/tool-runner.js";
import { McpManager } from "../../src/mcp/manager.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { capToolResult, MAX_TOOL_RESULT_CHARS } from "../../src/protocol/result-cap.js";
import type { AnyTool } from "../../src/protocol/tool.js";
import { writeFakeMcpServer } from "../mcp/fake-mcp-server.js";

const lines = (n: number, width = 20) => Array.from({ length: n }, (_, i) => `line ${String(i + 1).padStart(6, "0")} ${"x".repeat(width)}`).join("\n");

describe("capToolResult", () => {
  it("leaves a result within the cap alone", () => {
    const text = lines(100);
    expect(capToolResult(text, "grep", 10_000)).toBe(text);
  });

  it("keeps whole head and tail lines around a marker naming the lines and bytes cut", () => {
    const text = lines(2000); // 2000 lines of 32 chars
    const out = capToolResult(text, "find", 10_000);
    expect(out.length).toBeLessThanOrEqual(10_000);
    expect(out.startsWith("line 000001 ")).toBe(true);
    expect(out.endsWith("line 002000 " + "x".repeat(20))).toBe(true);
    const marker = /\[… (\d+) more lines \(([\d.]+) KB\) cut here — the find result was ([\d.]+) KB, over the 9\.8 KB limit for one tool result\. Ask for a smaller part: offset\/limit for read/.exec(out);
    expect(marker).not.toBeNull();
    const kept = out.split("\n").filter((l) => l.startsWith("line "));
    expect(kept.every((l) => /^line \d{6} x{20}$/.test(l))).toBe(true);
    expect(kept.length + Number(marker![1])).toBe(2000);
  });

  it("never splits a surrogate pair at either cut", () => {
    const text = "😀".repeat(20_000); // no newlines: cuts fall anywhere
    for (const max of [5_001, 5_002, 5_003]) {
      const out = capToolResult(text, "mcp__x__y", max);
      expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      expect(out).toContain("cut here");
    }
  });
});

describe("every tool result is capped by the runner", () => {
  const managers: McpManager[] = [];
  afterEach(async () => void (await Promise.all(managers.splice(0).map((m) => m.close()))));

  const run = async (tool: AnyTool, args: Record<string, unknown>) => {
    const events: AgentEvent[] = [];
    const [result] = await runToolCalls([{ type: "toolCall", id: "c1", name: tool.name, arguments: args }], {
      tools: [tool],
      cwd: tmpdir(),
      agent: { id: "main", label: "main", depth: 0 },
      signal: new AbortController().signal,
      emit: (e) => events.push(e),
    });
    return { result: result!, events };
  };

  it("a built-in-shaped tool returning 1 MB reaches the model capped, with the marker", async () => {
    const huge: AnyTool = { name: "huge", description: "d", schema: z.object({}), concurrent: true, readOnly: true, execute: async () => ({ output: lines(40_000), isError: false }) };
    const { result, events } = await run(huge, {});
    expect(result.content.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
    expect(result.content).toContain("cut here — the huge result was");
    const end = events.find((e) => e.type === "tool_end") as Extract<AgentEvent, { type: "tool_end" }>;
    expect(end.result.content).toBe(result.content);
  });

  it("an MCP tool's huge result (a real stdio server) is capped the same way", async () => {
    const script = writeFakeMcpServer();
    const m = new McpManager([{ name: "docs", source: "test", transport: "stdio", command: process.execPath, args: [script], env: { MODE: "ok" }, startupTimeoutMs: 10_000 }]);
    managers.push(m);
    await m.start();
    const echo = m.tools().find((t) => t.name === "mcp__docs__echo")!;
    const { result } = await run(echo, { text: "y".repeat(400_000) });
    expect(result.isError).toBe(false);
    expect(result.content.startsWith("echo: yyy")).toBe(true);
    expect(result.content.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
    expect(result.content).toMatch(/\[… [\d.]+ KB cut here — the mcp__docs__echo result was 390\.\d KB/);
  });
});
