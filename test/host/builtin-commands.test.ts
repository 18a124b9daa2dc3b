/** `/rewind` and `/merge` typed to a screenless front end (ACP, `-p`): read as the TUI reads them, done by ops, answered as text. */
import { expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { runScreenlessCommand, screenlessCommand } from "../../src/host/builtin-commands.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

it("reads /rewind and /merge in any case with their arguments, and nothing else", () => {
  expect(screenlessCommand("  /Rewind 2 files ")).toEqual({ name: "rewind", args: "2 files" });
  expect(screenlessCommand("/merge")).toEqual({ name: "merge", args: "" });
  expect(screenlessCommand("/merger 1")).toBeUndefined();
  expect(screenlessCommand("please /rewind")).toBeUndefined();
});

it("answers through the session's ops; what cannot be done is ok: false with the reason", async () => {
  const s = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider: createScriptedProvider(() => ({ text: "x" })), model: "m", interactive: false, approval: {} });
  const asked: string[] = [];
  const spy = { submit: ((op: { type: string }, opts?: unknown) => (asked.push(op.type), s.submit(op as never, opts as never))) as AgentSession["submit"], subscribe: s.subscribe.bind(s) };
  expect(await runScreenlessCommand(spy, { name: "rewind", args: "" })).toMatchObject({ ok: true, text: expect.stringContaining("No checkpoints yet") });
  expect(await runScreenlessCommand(spy, { name: "rewind", args: "3 sideways" })).toEqual({ ok: false, text: expect.stringContaining('/rewind: unknown word "sideways"') });
  expect(await runScreenlessCommand(spy, { name: "rewind", args: "3" })).toMatchObject({ ok: false, text: expect.stringContaining("/rewind: no checkpoint for turn 3") });
  expect(await runScreenlessCommand(spy, { name: "merge", args: "hand" })).toMatchObject({ ok: false, text: expect.stringContaining("/merge hand: no merge stopped at a conflict") });
  expect(asked).toEqual(["list_turns", "get_state", "rewind", "merge_hand"]);
  s.close();
});
