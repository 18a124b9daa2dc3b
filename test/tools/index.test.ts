import { describe, expect, it } from "vitest";
import { builtinTools, READ_ONLY_TOOL_NAMES } from "../../src/tools/index.js";
import { toToolSpec } from "../../src/tools/spec.js";

describe("builtin tool set", () => {
  it("lists the seven tools in order", () => {
    expect(builtinTools().map((t) => t.name)).toEqual(["read", "bash", "grep", "find", "ls", "edit", "write"]);
  });

  it("READ_ONLY_TOOL_NAMES matches the tools' readOnly flags, and read-only tools are concurrent", () => {
    const tools = builtinTools();
    expect([...READ_ONLY_TOOL_NAMES].sort()).toEqual(tools.filter((t) => t.readOnly).map((t) => t.name).sort());
    expect(READ_ONLY_TOOL_NAMES).toEqual(["read", "grep", "find", "ls"]);
    for (const t of tools) expect(t.concurrent).toBe(t.readOnly);
  });

  it("every tool converts to a model-facing spec with its fixed argument names", () => {
    const props = Object.fromEntries(
      builtinTools().map((t) => {
        const spec = toToolSpec(t);
        expect(spec.description.length).toBeGreaterThan(20);
        return [t.name, Object.keys((spec.inputSchema as { properties: object }).properties)];
      }),
    );
    expect(props).toEqual({
      read: ["path", "offset", "limit"],
      bash: ["command", "timeoutMs"],
      grep: ["pattern", "path", "glob", "ignoreCase", "output"],
      find: ["pattern", "path"],
      ls: ["path"],
      edit: ["path", "oldText", "newText"],
      write: ["path", "content"],
    });
  });
});
