import { describe, expect, it } from "vitest";
import { applyCompletion, completionAt } from "./completion.js";
import { lineOf } from "./line-editor.js";
import { SLASH_COMMANDS } from "./slash-commands.js";

const sources = { commands: SLASH_COMMANDS, files: ["src/cli.tsx", "components/views/Prompt.tsx", "src/agent-session.ts", "README.md"] };

describe("completion", () => {
  it("completes the first word after / from the commands, not later words, and not a whole command", () => {
    expect(completionAt(lineOf("/res"), sources)?.items.map((i) => i.insert)).toEqual(["/resume"]);
    expect(completionAt(lineOf("/"), sources)?.items).toHaveLength(SLASH_COMMANDS.length);
    expect(completionAt(lineOf("/resume"), sources)).toBeUndefined();
    expect(completionAt(lineOf("/model cl"), sources)).toBeUndefined();
    expect(completionAt(lineOf("use /re"), sources)).toBeUndefined();
    // A command typed in full comes first, before the longer ones it is a prefix of.
    expect(completionAt(lineOf("/mode"), sources)?.items.map((i) => i.insert)).toEqual(["/mode", "/model"]);
    expect(completionAt(lineOf("/MODE"), sources)?.items[0]!.insert).toBe("/mode");
    expect(completionAt(lineOf("/mod"), sources)?.items.map((i) => i.insert)).toEqual(["/model", "/mode"]);
  });

  it("ranks @ paths: path prefix, then file-name prefix, then anywhere; replaces only the word at the cursor", () => {
    expect(completionAt(lineOf("see @pro"), sources)?.items.map((i) => i.insert)).toEqual(["@components/views/Prompt.tsx"]);
    expect(completionAt(lineOf("@s"), sources)?.items.map((i) => i.insert)).toEqual(["@src/cli.tsx", "@src/agent-session.ts", "@components/views/Prompt.tsx"]);
    expect(completionAt(lineOf("@agent"), sources)?.items.map((i) => i.insert)).toEqual(["@src/agent-session.ts"]);
    const state = { ...lineOf("fix @cli now"), cursor: 8 };
    const c = completionAt(state, sources)!;
    expect(c).toMatchObject({ kind: "file", query: "cli", start: 4, end: 8 });
    expect(applyCompletion(state, c, c.items[0]!)).toMatchObject({ value: "fix @src/cli.tsx now", cursor: 17 });
    expect(completionAt(lineOf("@nothing-like-it"), sources)).toBeUndefined();
    expect(completionAt(lineOf("@comp/prom"), sources)?.items.map((i) => i.insert)).toEqual(["@components/views/Prompt.tsx"]);
  });
});
