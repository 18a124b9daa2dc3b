import { describe, expect, it } from "vitest";
import type { ToolSpec } from "../../src/protocol/provider.js";
import { fingerprint } from "../../src/session/fingerprint.js";
import { isSafeSessionId, newSessionId } from "../../src/session/ids.js";

const read: ToolSpec = {
  name: "read",
  description: "Read a file",
  inputSchema: { type: "object", properties: { path: { type: "string" }, limit: { type: "integer" } }, required: ["path"] },
};
const bash: ToolSpec = { name: "bash", description: "Run a command", inputSchema: { type: "object", properties: { command: { type: "string" } } } };

describe("fingerprint", () => {
  it("is a sha256 hex digest, stable across key order and tool order", () => {
    const fp = fingerprint("You are Ink.", [read, bash]);
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    const reordered: ToolSpec = {
      inputSchema: { required: ["path"], properties: { limit: { type: "integer" }, path: { type: "string" } }, type: "object" },
      description: "Read a file",
      name: "read",
    };
    expect(fingerprint("You are Ink.", [bash, reordered])).toBe(fp);
  });

  it("changes when the system prompt or any tool changes", () => {
    const fp = fingerprint("You are Ink.", [read, bash]);
    expect(fingerprint("You are Ink!", [read, bash])).not.toBe(fp);
    expect(fingerprint("You are Ink.", [read])).not.toBe(fp);
    expect(fingerprint("You are Ink.", [read, { ...bash, description: "Run a shell command" }])).not.toBe(fp);
    expect(fingerprint("You are Ink.", [read, { ...bash, inputSchema: { type: "object", properties: {} } }])).not.toBe(fp);
    // Array order inside a schema is meaningful and kept.
    expect(fingerprint("You are Ink.", [{ ...read, inputSchema: { ...read.inputSchema, required: ["limit", "path"] } }, bash])).not.toBe(
      fingerprint("You are Ink.", [{ ...read, inputSchema: { ...read.inputSchema, required: ["path", "limit"] } }, bash]),
    );
  });
});

describe("newSessionId", () => {
  it("is short, filesystem-safe, unique and sorts by creation time", () => {
    const early = newSessionId(new Date("2026-12-02T14:23:01.000Z"));
    const late = newSessionId(new Date("2026-12-02T14:23:02.000Z"));
    expect(early).toMatch(/^20261202-142301-[0-9a-f]{6}$/);
    expect(early < late).toBe(true);
    expect(isSafeSessionId(early)).toBe(true);
    expect(new Set(Array.from({ length: 50 }, () => newSessionId())).size).toBe(50);
  });

  it("rejects unsafe ids", () => {
    for (const bad of ["", "../x", "a/b", ".hidden", "a..b", "a b"]) expect(isSafeSessionId(bad)).toBe(false);
  });
});
