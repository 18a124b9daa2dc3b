import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../src/session/store.js";
import { readToolResults } from "../../src/session/tool-result-reader.js";
import { assistant, header, tempHome, user } from "./helpers.js";

let home: { dir: string; cleanup: () => void };
let store: SessionStore;
beforeEach(() => {
  home = tempHome();
  store = new SessionStore(home.dir);
});
afterEach(() => home.cleanup());

const long = (tag: string) => Array.from({ length: 500 }, (_, i) => `${tag} line ${i + 1}`).join("\n");

/** A real session file (written by the store) with two turns of tool calls. */
function sessionFile(): string {
  const w = store.create(header());
  w.append({ type: "message", message: user("look") });
  w.append({ type: "message", message: assistant("", [{ id: "call_1", name: "read" }]) });
  w.append({ type: "message", message: { role: "toolResult", results: [{ toolCallId: "call_1", toolName: "read", content: long("first"), isError: false }] } });
  w.append({ type: "message", message: assistant("", [{ id: "call_2", name: "bash" }, { id: "call_3", name: "grep" }]) });
  w.append({
    type: "message",
    message: {
      role: "toolResult",
      results: [
        { toolCallId: "call_2", toolName: "bash", content: long("second"), isError: true },
        { toolCallId: "call_3", toolName: "grep", content: "one hit", isError: false },
      ],
    },
  });
  w.append({ type: "message", message: assistant("done") });
  return store.path(w.id);
}

describe("readToolResults", () => {
  it("finds the whole saved result of each asked-for tool call in a real JSONL session file", () => {
    const path = sessionFile();
    const { results, problem } = readToolResults(path, ["call_2", "call_1", "call_3"]);
    expect(problem).toBeUndefined();
    expect(results.get("call_1")).toEqual({ toolCallId: "call_1", toolName: "read", content: long("first"), isError: false });
    expect(results.get("call_2")).toMatchObject({ toolName: "bash", isError: true });
    expect(results.get("call_2")!.content.split("\n")).toHaveLength(500);
    expect(results.get("call_3")!.content).toBe("one hit");
  });

  it("skips a torn last line (a crash mid-write) and still finds the results before it", () => {
    const path = sessionFile();
    const torn = JSON.stringify({ type: "message", message: { role: "toolResult", results: [{ toolCallId: "call_9", toolName: "bash", content: long("torn"), isError: false }] } });
    appendFileSync(path, torn.slice(0, torn.length / 2));
    const { results, problem } = readToolResults(path, ["call_9", "call_1"]);
    expect(problem).toBeUndefined();
    expect(results.get("call_1")!.content).toBe(long("first"));
    expect(results.has("call_9")).toBe(false);
  });

  it("an id the file does not hold is simply absent; a missing file is a problem, not a throw", () => {
    const path = sessionFile();
    expect(readToolResults(path, ["nope"]).results.size).toBe(0);
    const missing = readToolResults(join(home.dir, "sessions", "gone.jsonl"), ["call_1"]);
    expect(missing.results.size).toBe(0);
    expect(missing.problem).toMatch(/gone\.jsonl does not exist/);
  });
});
