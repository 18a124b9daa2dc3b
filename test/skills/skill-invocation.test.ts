/** Claude Code's `disable-model-invocation: true` (issue #38 item 4): the model neither sees nor loads the skill. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { runPrintMode } from "../../src/cli/print-mode.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const put = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

it("a skill with disable-model-invocation: true is left out of the system prompt and the skill tool refuses it; the others stay", async () => {
  const cwd = temp("ink-skinv-cwd-");
  const inkHome = temp("ink-skinv-home-");
  put(join(inkHome, "skills/deploy/SKILL.md"), "---\nname: deploy\ndescription: Deploys to production.\ndisable-model-invocation: true\n---\nDEPLOY-BODY\n");
  put(join(inkHome, "skills/notes/SKILL.md"), "---\nname: notes\ndescription: Writes release notes.\n---\nNOTES-BODY\n");
  const provider = createScriptedProvider((r) =>
    r.messages.length === 1 ? { toolCalls: [{ id: "s1", name: "skill", arguments: { name: "deploy" } }, { id: "s2", name: "skill", arguments: { name: "notes" } }] } : { text: "done" },
  );
  const s = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: true, approval: { mode: "yolo" }, persist: false });
  expect(s.skills.skills.find((k) => k.name === "deploy")?.disableModelInvocation).toBe(true);
  await s.prompt("go");
  const system = provider.requests[0]!.system;
  expect(system).toContain("- notes: Writes release notes.");
  expect(system).not.toContain("deploy");
  const [deploy, notes] = (provider.requests[1]!.messages.at(-1) as ToolResultMessage).results;
  expect(deploy).toMatchObject({ isError: true, content: expect.stringContaining('unknown skill "deploy"') });
  expect(notes).toMatchObject({ isError: false, content: expect.stringContaining("NOTES-BODY") });
  s.close();
});

it("every skill hidden from the model: no skill tool and no Skills section", async () => {
  const cwd = temp("ink-skinv2-cwd-");
  const inkHome = temp("ink-skinv2-home-");
  put(join(inkHome, "skills/deploy/SKILL.md"), "---\nname: deploy\ndescription: Deploys.\ndisable-model-invocation: true\n---\nDEPLOY-BODY\n");
  const provider = createScriptedProvider([{ text: "ok" }]);
  const s = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: true, approval: {}, persist: false });
  await s.prompt("hi");
  expect(provider.requests[0]!.tools.map((t) => t.name)).not.toContain("skill");
  expect(provider.requests[0]!.system).not.toContain("deploy");
  s.close();
});

it("/skill-name runs a skill as Claude Code does (a hidden one too): its instructions are the prompt, what was typed appended; a command file of that name wins", async () => {
  const cwd = temp("ink-skinv3-cwd-");
  const inkHome = temp("ink-skinv3-home-");
  put(join(inkHome, "skills/deploy/SKILL.md"), "---\nname: deploy\ndescription: Deploys.\ndisable-model-invocation: true\n---\nDEPLOY-BODY\n");
  put(join(inkHome, "skills/notes/SKILL.md"), "---\nname: notes\ndescription: Notes.\n---\nNOTES-BODY for $ARGUMENTS\n");
  put(join(inkHome, "skills/fix/SKILL.md"), "---\nname: fix\ndescription: Fixes.\n---\nFIX-SKILL-BODY\n");
  put(join(inkHome, "commands/fix.md"), "FIX-COMMAND-FILE $ARGUMENTS\n");
  const provider = createScriptedProvider(() => ({ text: "ok" }));
  const s = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: false, approval: {}, persist: false });
  const out: string[] = [];
  const io = { stdout: (t: string) => out.push(t), stderr: () => {} };
  expect(await runPrintMode(s, "/deploy staging", { json: false, signal: new AbortController().signal, io })).toBe(0);
  await runPrintMode(s, "/notes v2", { json: false, signal: new AbortController().signal, io });
  await runPrintMode(s, "/fix it", { json: false, signal: new AbortController().signal, io });
  const prompts = provider.requests.map((r) => JSON.stringify(r.messages.filter((m) => m.role === "user").at(-1)));
  expect(prompts[0]).toMatch(/DEPLOY-BODY[\s\S]*ARGUMENTS: staging/);
  expect(prompts[1]).toContain("NOTES-BODY for v2");
  expect(prompts[2]).toContain("FIX-COMMAND-FILE it");
  expect(prompts[2]).not.toContain("FIX-SKILL-BODY");
  s.close();
});
