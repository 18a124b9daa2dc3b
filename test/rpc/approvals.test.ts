/** RpcApprovals: the control channel's `ask` — the request event, answers, and what stopping does to waiting requests. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RpcApprovals, approvalDiff } from "../../src/rpc/approvals.js";
import type { ToolCall } from "../../src/protocol/messages.js";

const main = { id: "main", label: "main", depth: 0 };
const child = { id: "c1", label: "general", depth: 1, cwd: "/wt/c1" };
const bash = (command: string): ToolCall => ({ type: "toolCall", id: `t-${command}`, name: "bash", arguments: { command } });

describe("RpcApprovals", () => {
  it("emits the whole request and resolves with the client's answer (a denial's reason goes to the model)", async () => {
    const events: any[] = [];
    const approvals = new RpcApprovals((e) => events.push(e), "/repo");
    const first = approvals.ask(bash("make"), main, { reason: "bash needs approval", firm: false });
    const second = approvals.ask(bash("rm x"), child);
    expect(events).toEqual([
      { type: "approval_request", requestId: "a1", tool: "bash", arguments: { command: "make" }, toolCallId: "t-make", agent: main, cwd: "/repo", command: "make", reason: "bash needs approval", firm: false },
      expect.objectContaining({ requestId: "a2", cwd: "/wt/c1", agent: child }),
    ]);
    expect(approvals.answer("a9", true)).toBe('no approval request "a9" is waiting (waiting: a1, a2)');
    expect(approvals.answer("a1", true)).toBeUndefined();
    expect(await first).toEqual({ allow: true });
    approvals.answer("a2", false, "not that file");
    expect(await second).toEqual({ allow: false, reason: "the user declined this bash call and said: not that file" });
    expect(approvals.answer("a2", true)).toContain("none is");
  });

  it("stopping an agent denies its waiting requests only; closing denies every waiting and later one", async () => {
    const events: any[] = [];
    const approvals = new RpcApprovals((e) => events.push(e), "/repo");
    const mine = approvals.ask(bash("a"), child);
    const other = approvals.ask(bash("b"), main);
    approvals.cancel("subagent c1 was stopped", "c1");
    expect(await mine).toEqual({ allow: false, reason: "subagent c1 was stopped" });
    expect(approvals.waiting).toEqual(["a2"]);
    approvals.close("the control channel closed");
    expect(await other).toEqual({ allow: false, reason: "the control channel closed" });
    expect(await approvals.ask(bash("c"), main)).toEqual({ allow: false, reason: "the control channel closed" });
    expect(events.filter((e) => e.type === "approval_cancelled").map((e) => e.requestId)).toEqual(["a1", "a2"]);
  });

  it("shows an edit or a write as a unified diff, an edit with the 3 lines around its change as the TUI does", () => {
    const dir = mkdtempSync(join(tmpdir(), "ink-rpc-diff-"));
    writeFileSync(join(dir, "a.ts"), "one\ntwo\nx\ny\n");
    expect(approvalDiff({ type: "toolCall", id: "e", name: "edit", arguments: { path: "a.ts", oldText: "x\ny", newText: "z" } }, dir)).toBe("--- a.ts\n+++ a.ts\n@@ -1,4 +1,3 @@\n one\n two\n-x\n-y\n+z");
    writeFileSync(join(dir, "b.ts"), ["one", "two", "three", "four", "five", "  const a = 1;", "six", "seven", "eight", "nine", ""].join("\n"));
    expect(approvalDiff({ type: "toolCall", id: "e2", name: "edit", arguments: { path: "b.ts", oldText: "a = 1;", newText: "a = 2;" } }, dir)).toBe(
      ["--- b.ts", "+++ b.ts", "@@ -3,7 +3,7 @@", " three", " four", " five", "-  const a = 1;", "+  const a = 2;", " six", " seven", " eight"].join("\n"),
    );
    // Text the file does not hold: the change alone, placed at line 1.
    expect(approvalDiff({ type: "toolCall", id: "e3", name: "edit", arguments: { path: "b.ts", oldText: "gone", newText: "new" } }, dir)).toBe("--- b.ts\n+++ b.ts\n@@ -1,1 +1,1 @@\n-gone\n+new");
    expect(approvalDiff({ type: "toolCall", id: "w", name: "write", arguments: { path: "n.md", content: "hi\n" } }, dir)).toBe("--- /dev/null\n+++ n.md\n@@ -0,0 +1,2 @@\n+hi\n+");
    expect(approvalDiff(bash("ls"), dir)).toBeUndefined();
    rmSync(dir, { recursive: true });
  });
});
