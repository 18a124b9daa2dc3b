/** The /resume picker names a session by the person's first question, never by a child-resume prompt (issue #39 item 12). */
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { userText, type UserMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

function open(cwd: string, inkHome: string) {
  const provider = createScriptedProvider((r) => {
    if (isChild(r)) return { text: "REPORT" };
    const last = r.messages.at(-1)!;
    if (last.role === "toolResult") return { text: "main done" };
    return userText(last as UserMessage).endsWith("go") ? { toolCalls: [{ name: "task", arguments: { prompt: "dig" } }] } : { text: "thanks" };
  });
  return new AgentSession({ cwd, inkHome, provider, model: "m", interactive: true, approval: {} });
}

describe("a session's name in listings", () => {
  it("a session that began with a child resumed from the sidebar is named by the person's first question, also after a reload", async () => {
    const cwd = temp("ink-cwd-");
    const inkHome = temp("ink-home-");
    const first = open(cwd, inkHome);
    await first.prompt("go");
    const childId = first.store!.list({ kind: "child" })[0]!.id;
    first.close();

    const second = open(cwd, inkHome);
    await second.resumeChild(childId, "and the flush? (a child-resume prompt)", { toolCallId: "ui-resume-1" });
    const id = second.sessionId;
    // Before any question the session is not named by the resume prompt.
    expect(second.store!.list({ kind: "main" }).find((s) => s.id === id)?.prompt).toBeUndefined();
    await second.prompt("what did it find?");
    expect(second.store!.list({ kind: "main" }).find((s) => s.id === id)?.prompt).toBe("what did it find?");
    await second.prompt("and then?");
    second.close();

    const third = open(cwd, inkHome);
    expect(third.store!.list({ kind: "main" }).find((s) => s.id === id)?.prompt).toBe("what did it find?");
    third.close();
  });
});
