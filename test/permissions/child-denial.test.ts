/** A child's refused call comes back to the child as its tool result; the child goes on and its answer reaches the parent. */
import { existsSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { createApprovalPolicy } from "../../src/core/approval.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { bashTool } from "../../src/tools/bash.js";
import { harness, isChild, type Harness } from "../helpers/subagent-harness.js";

let h: Harness | undefined;
afterEach(() => h?.cleanup());

it("headless: the child's bash (no rule allows it) is refused as its tool result; the command never ran; the child answers; the parent gets it", async () => {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "ink-child-deny-")));
  const sentinel = join(cwd, "ran");
  const policy = createApprovalPolicy({ cwd, rules: { deny: ["bash(rm*)"] } });
  h = harness(
    (request) => {
      if (!isChild(request)) return request.messages.length === 1 ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "touch a file" } }] } : { text: "parent done" };
      const last = request.messages.at(-1)!;
      if (last.role === "user") return { toolCalls: [{ id: "b1", name: "bash", arguments: { command: `touch ${sentinel}` } }, { id: "b2", name: "bash", arguments: { command: "rm -rf /tmp/nothing-here" } }] };
      const results = (last as ToolResultMessage).results;
      return { text: `could not: ${results.map((r) => (r.isError ? "refused" : "ran")).join(", ")}` };
    },
    { extraTools: [bashTool], onToolCall: policy, cwd },
  );
  await h.run("go");
  const childSecond = h.provider.requests.filter(isChild)[1]!;
  const [asked, denied] = (childSecond.messages.at(-1) as ToolResultMessage).results;
  expect(asked).toMatchObject({ toolCallId: "b1", isError: true, content: expect.stringMatching(/^tool call refused: bash needs approval .*this run cannot ask \(headless\); subagent general \(.+\) must do without it/s) });
  expect(denied).toMatchObject({ toolCallId: "b2", isError: true, content: expect.stringContaining('is denied by the rule bash(rm*)') });
  expect(existsSync(sentinel)).toBe(false);
  const taskResult = (h.history[2] as ToolResultMessage).results[0]!;
  expect(taskResult).toMatchObject({ toolName: "task", isError: false, content: expect.stringContaining("could not: refused, refused") });
  expect(h.history.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "parent done" }] });
});
