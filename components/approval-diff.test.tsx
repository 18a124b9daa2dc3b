/** Edit approvals read as a unified diff (3 context lines, marked); a write preview counts its lines right (issue #39 item 10). */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { ApprovalModal } from "./views/ApprovalModal.js";
import { ApprovalBroker, type ApprovalRequest } from "./state/approval-broker.js";
import { stripAnsi } from "./testing/wait-for-frame.js";

afterEach(() => cleanup());

const agent = { id: "main", label: "main", depth: 0 };

describe("approval previews", () => {
  it("an edit shows 3 unchanged lines before and after the change, marked as context, with its hunk's line numbers", () => {
    const cwd = mkdtempSync(join(tmpdir(), "ink-approval-"));
    writeFileSync(join(cwd, "a.ts"), ["one", "two", "three", "four", "five", "  const a = 1;", "six", "seven", "eight", "nine", ""].join("\n"));
    const broker = new ApprovalBroker({ cwd });
    void broker.ask({ type: "toolCall", id: "c1", name: "edit", arguments: { path: "a.ts", oldText: "a = 1;", newText: "a = 2;" } }, agent);
    const request = broker.current()!;
    const rows = stripAnsi(render(<ApprovalModal request={request} onAnswer={() => {}} width={80} />).lastFrame()!)
      .split("\n")
      .map((r) => r.replace(/^│ ?/, "").replace(/ *│$/, ""));
    const at = rows.findIndex((r) => r.startsWith("@@"));
    expect(rows[at]).toBe("@@ -3,7 +3,7 @@");
    expect(rows.slice(at + 1, at + 9)).toEqual([" three", " four", " five", "-  const a = 1;", "+  const a = 2;", " six", " seven", " eight"]);
    expect(rows).not.toContain(" two");
    expect(rows).not.toContain(" nine");
  });

  it("a write's count does not take a final newline for a line", () => {
    const write: ApprovalRequest = { id: 1, agent, call: { type: "toolCall", id: "c3", name: "write", arguments: { path: "n.txt", content: "hello\nworld\n" } } };
    const frame = stripAnsi(render(<ApprovalModal request={write} onAnswer={() => {}} width={80} />).lastFrame()!);
    expect(frame).toContain("new n.txt  +2");
    expect(frame).not.toMatch(/^│ \+ *│$/m);
  });
});
