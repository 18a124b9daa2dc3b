/**
 * The session confines what runs unattended (issue #36, "An OS boundary"): a yolo run's bash and a
 * worktree child's bash cannot write outside their directory; a command allowed by a rule outside
 * yolo still can (the control). Real bubblewrap, real git, directories outside the temp dirs.
 */
import { untempBase } from "./helpers/untemp-dir.js";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentSession } from "../src/host/agent-session.js";
import type { AgentEvent } from "../src/protocol/events.js";
import type { ModelRequest } from "../src/protocol/provider.js";
import { createScriptedProvider, type ScriptedTurn } from "../src/providers/scripted.js";
import { confinementUnavailable } from "../src/tools/sandbox.js";
import { isChild } from "./helpers/subagent-harness.js";

const why = confinementUnavailable();

describe.skipIf(why !== undefined)(`unattended bash in a session (${why ?? "bubblewrap"})`, () => {
  let root: string;
  let project: string;
  let inkHome: string;
  beforeEach(() => {
    // Not under a temp dir: those stay writable by design.
    root = mkdtempSync(join(untempBase(), ".ink-session-boundary-"));
    project = join(root, "project");
    inkHome = join(root, "home");
    mkdirSync(project);
    mkdirSync(inkHome);
    execFileSync("git", ["init", "-q", project]);
    writeFileSync(join(project, "a.txt"), "a\n");
    execFileSync("git", ["-C", project, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "one", "--allow-empty"]);
    execFileSync("git", ["-C", project, "add", "a.txt"]);
    execFileSync("git", ["-C", project, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "two"]);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const session = (script: (r: ModelRequest) => ScriptedTurn, approval: { yolo?: boolean }, settings: object = {}) => {
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify(settings));
    const provider = createScriptedProvider(script);
    return new AgentSession({ cwd: project, inkHome, provider, model: provider.defaultModel, interactive: false, approval, persist: false });
  };
  const turn = (r: ModelRequest) => r.messages.filter((m) => m.role === "assistant").length + 1;

  it("in yolo, bash writes the project but not outside it (allowed by a rule outside yolo, it can: the control)", async () => {
    const command = `touch inside.txt ${root}/escaped.txt`;
    const script = (r: ModelRequest): ScriptedTurn => (turn(r) === 1 ? { toolCalls: [{ name: "bash", arguments: { command } }] } : { text: "done" });
    const yolo = session(script, { yolo: true });
    expect(yolo.notices.some((n) => n.includes("writes: project + tmp · network: off"))).toBe(true);
    await yolo.prompt("go");
    yolo.close();
    expect(existsSync(join(project, "inside.txt"))).toBe(true);
    expect(existsSync(join(root, "escaped.txt"))).toBe(false);
    const asked = session(script, {}, { permissions: { allow: ["bash"] } });
    await asked.prompt("go");
    asked.close();
    expect(existsSync(join(root, "escaped.txt"))).toBe(true);
  });

  it("a worktree child's bash cannot write into the person's checkout (outside yolo, its command allowed by a rule)", async () => {
    const script = (r: ModelRequest): ScriptedTurn => {
      if (isChild(r)) return turn(r) === 1 ? { toolCalls: [{ name: "bash", arguments: { command: `touch b.txt ${project}/escaped.txt` } }] } : { text: "CHILD DONE" };
      return turn(r) === 1 ? { toolCalls: [{ name: "task", arguments: { prompt: "change files", worktree: true } }] } : { text: "done" };
    };
    const s = session(script, {}, { permissions: { allow: ["bash"] } });
    const events: AgentEvent[] = [];
    await s.prompt("go", { onEvent: (e) => events.push(e) });
    s.close();
    expect(existsSync(join(project, "escaped.txt"))).toBe(false);
    const taskEnd = events.find((e) => e.type === "tool_end" && e.call.name === "task") as Extract<AgentEvent, { type: "tool_end" }>;
    expect(taskEnd.result.content).toContain("b.txt"); // its own tree was written (the worktree report names the change)
  });
});
