/** The control channel's command parser: every bad line gets an error naming the field, never a throw. */
import { describe, expect, it } from "vitest";
import { COMMAND_TYPES, parseCommandLine } from "../../src/rpc/commands.js";

describe("parseCommandLine", () => {
  it("parses each command with its id", () => {
    expect(parseCommandLine('{"type":"prompt","text":"hi","id":1}')).toEqual({ ok: true, command: { type: "prompt", text: "hi", id: 1 } });
    expect(parseCommandLine('{"type":"deny","requestId":"a1","reason":"no"}')).toEqual({ ok: true, command: { type: "deny", requestId: "a1", reason: "no" } });
    expect(parseCommandLine('{"type":"steer","text":"look at b","child":"c-1"}')).toMatchObject({ ok: true, command: { child: "c-1" } });
  });

  it("names the field that is missing or wrong", () => {
    expect(parseCommandLine('{"type":"prompt","id":"p"}')).toEqual({ ok: false, id: "p", command: "prompt", error: 'prompt: field "text" is required' });
    expect(parseCommandLine('{"type":"prompt","text":5}')).toMatchObject({ ok: false, error: expect.stringMatching(/^prompt: field "text" .*string/) });
    expect(parseCommandLine('{"type":"prompt","text":"  "}')).toMatchObject({ ok: false, error: 'prompt: field "text" must not be empty' });
    expect(parseCommandLine('{"type":"approve"}')).toMatchObject({ ok: false, error: 'approve: field "requestId" is required' });
    expect(parseCommandLine('{"type":"get_state","id":{}}')).toMatchObject({ ok: false, error: 'field "id" must be a string or a number' });
    expect(parseCommandLine('{"text":"hi"}')).toMatchObject({ ok: false, error: expect.stringContaining('field "type" is missing') });
  });

  it("says what a line that is not a command is, and lists the known commands for an unknown one", () => {
    expect(parseCommandLine("hello")).toMatchObject({ ok: false, error: expect.stringMatching(/^not JSON/) });
    expect(parseCommandLine("[1]")).toMatchObject({ ok: false, error: expect.stringContaining("JSON object") });
    const unknown = parseCommandLine('{"type":"frobnicate","id":7}');
    expect(unknown).toMatchObject({ ok: false, id: 7, command: "frobnicate" });
    expect((unknown as { error: string }).error).toBe(`unknown command "frobnicate"; known commands: ${COMMAND_TYPES.join(", ")}`);
    expect(parseCommandLine('{"type":"prmpt"}')).toMatchObject({ error: expect.stringContaining('did you mean "prompt"?') });
  });
});
