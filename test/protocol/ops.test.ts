/** The ops vocabulary: bad ops are refused with the field named; the control channel's commands are these ops (they cannot drift). */
import { describe, expect, it } from "vitest";
import { OP_SCHEMAS, OP_TYPES, parseOp } from "../../src/protocol/ops.js";
import { COMMAND_TYPES, parseCommandLine } from "../../src/rpc/commands.js";

describe("parseOp", () => {
  it("accepts each kind of op a front end sends", () => {
    expect(parseOp({ type: "prompt", text: "hi" })).toEqual({ ok: true, op: { type: "prompt", text: "hi" } });
    expect(parseOp({ type: "steer", text: "look at b", child: "c-1" })).toEqual({ ok: true, op: { type: "steer", text: "look at b", child: "c-1" } });
    expect(parseOp({ type: "set_mode", mode: "plan" })).toEqual({ ok: true, op: { type: "set_mode", mode: "plan" } });
    expect(parseOp({ type: "answer_budget", requestId: 2, answer: { add: 5000 } })).toMatchObject({ ok: true });
    expect(parseOp({ type: "merge", branches: ["ink/a", 2], squash: true })).toMatchObject({ ok: true });
  });

  it("names the field that is missing or wrong, and what is wrong with it", () => {
    expect(parseOp({ type: "resume_child", text: "go on" })).toEqual({ ok: false, error: 'resume_child: field "child" is required' });
    expect(parseOp({ type: "set_model", model: "  " })).toEqual({ ok: false, error: 'set_model: field "model" must not be empty' });
    expect(parseOp({ type: "rewind", turn: 0 })).toMatchObject({ ok: false, error: expect.stringMatching(/^rewind: field "turn" .*1/) });
    expect(parseOp({ type: "set_mode", mode: "reckless" })).toMatchObject({ ok: false, error: expect.stringMatching(/^set_mode: field "mode" .*"plan"/) });
    expect(parseOp({ type: "answer_budget", requestId: 1, answer: { add: -3 } })).toMatchObject({ ok: false, error: expect.stringMatching(/^answer_budget: field "answer\.add" /) });
    expect(parseOp({ type: "end", reason: "bored" })).toMatchObject({ ok: false, error: expect.stringMatching(/^end: field "reason" .*"other"/) });
    expect(parseOp({ type: "save", create: "yes" })).toMatchObject({ ok: false, error: expect.stringMatching(/^save: field "create" /) });
    expect(parseOp({ type: "input", text: "" })).toEqual({ ok: false, error: 'input: field "text" must not be empty' });
  });

  it("says what is not an op, and suggests the closest name for an unknown one", () => {
    expect(parseOp("prompt")).toMatchObject({ ok: false, error: expect.stringContaining('"type" field') });
    expect(parseOp({ text: "hi" })).toMatchObject({ ok: false, error: expect.stringContaining('field "type" is missing') });
    const unknown = parseOp({ type: "resume_chld", child: "c" });
    expect(unknown).toEqual({ ok: false, error: `unknown op "resume_chld" (did you mean "resume_child"?); known ops: ${OP_TYPES.join(", ")}` });
  });
});

describe("the control channel's commands are ops", () => {
  it("every command is the op of the same name with an optional id: the same fields, no more", () => {
    for (const type of COMMAND_TYPES) expect(OP_TYPES, `command ${type} has no op`).toContain(type);
    expect(parseCommandLine('{"type":"abort","child":"c-1","id":2,"extra":true}')).toEqual({ ok: true, command: { type: "abort", child: "c-1", id: 2 } });
  });

  it("an op the channel does not offer is an unknown command, named with the closest command", () => {
    const line = parseCommandLine('{"type":"set_model","model":"opus","id":"m"}');
    expect(line).toEqual({ ok: false, id: "m", command: "set_model", error: `unknown command "set_model"; known commands: ${COMMAND_TYPES.join(", ")}` });
    expect(parseCommandLine('{"type":"list_turn"}')).toMatchObject({ ok: false, error: expect.stringContaining('(did you mean "list_turns"?)') });
  });

  it("a command line and its op validate alike (an op's rule is the command's rule)", () => {
    expect(parseCommandLine('{"type":"merge","branches":[],"id":3}')).toMatchObject({ ok: false, error: parseOp({ type: "merge", branches: [] }).ok ? "" : (parseOp({ type: "merge", branches: [] }) as { error: string }).error });
    const line = parseCommandLine('{"type":"rewind","turn":2,"files":true,"id":"r"}');
    expect(line).toEqual({ ok: true, command: { type: "rewind", turn: 2, files: true, id: "r" } });
    const { id: _id, ...op } = (line as { command: Record<string, unknown> }).command;
    expect(parseOp(op)).toEqual({ ok: true, op });
  });
});
