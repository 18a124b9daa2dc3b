/**
 * Claude Code's `permissions.disableBypassPermissionsMode: "disable"` (issue #38 item 7): yolo is
 * not taken — not from the session's mode, a later switch, nor an agent file's
 * `permissionMode: bypassPermissions` — so a call that would ask still asks (refused headless).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider, type Script } from "../../src/providers/scripted.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const put = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

function session(settings: object | undefined, script: Script, mode: "yolo" | "default" = "yolo") {
  const cwd = temp("ink-nobypass-cwd-");
  const inkHome = temp("ink-nobypass-home-");
  if (settings) put(join(cwd, ".claude/settings.json"), JSON.stringify(settings));
  put(join(cwd, ".claude/agents/runner.md"), "---\nname: runner\ndescription: Runs things.\npermissionMode: bypassPermissions\n---\nRun what you are told.\n");
  const provider = createScriptedProvider(script);
  const s = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: false, approval: { mode }, trust: true, persist: false });
  return { s, provider, cwd };
}

const touch = (r: { messages: unknown[] }) => (r.messages.length === 1 ? { toolCalls: [{ id: "b1", name: "bash", arguments: { command: "touch made.txt" } }] } : { text: "done" });

it("without the setting, yolo runs the call (the control)", async () => {
  const { s, cwd } = session(undefined, touch);
  await s.prompt("make it");
  expect(existsSync(join(cwd, "made.txt"))).toBe(true);
});

it('"disable": the session starts in default, a switch to yolo stays default, and the call is refused headless', async () => {
  const { s, provider, cwd } = session({ permissions: { disableBypassPermissionsMode: "disable" } }, touch);
  expect(s.permissionMode).toBe("default");
  s.setPermissionMode("yolo");
  expect(s.permissionMode).toBe("default");
  await s.prompt("make it");
  const result = (provider.requests[1]!.messages.at(-1) as ToolResultMessage).results[0]!;
  expect(result.isError).toBe(true);
  expect(result.content).toMatch(/needs approval/);
  expect(existsSync(join(cwd, "made.txt"))).toBe(false);
});

it('"disable": an agent file\'s permissionMode: bypassPermissions does not let its child skip the question', async () => {
  const script: Script = (r) => {
    const child = JSON.stringify(r.messages[0]).includes("CHILD-GO");
    if (child) return r.messages.length === 1 ? { toolCalls: [{ id: "c1", name: "bash", arguments: { command: "touch child.txt" } }] } : { text: "child done" };
    return r.messages.length === 1 ? { toolCalls: [{ id: "t1", name: "task", arguments: { agent: "runner", prompt: "CHILD-GO" } }] } : { text: "done" };
  };
  const { s, cwd } = session({ permissions: { disableBypassPermissionsMode: "disable" } }, script, "default");
  await s.prompt("delegate");
  expect(existsSync(join(cwd, "child.txt"))).toBe(false);
});
