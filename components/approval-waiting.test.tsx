/** Tool calls only waiting behind an approval do not spin as if running (issue #39 item 10). */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { ApprovalBroker } from "./state/approval-broker.js";
import { callHold } from "./layout/item-lines.js";
import type { ToolItem } from "./state/transcript-types.js";
import { ToolCallLine } from "./views/ToolCallLine.js";
import { stripAnsi } from "./testing/wait-for-frame.js";

afterEach(() => cleanup());

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const main = { id: "main", label: "main", depth: 0 };
const edit = (id: string, path: string, status: ToolItem["status"]): ToolItem => ({ kind: "tool", id, done: false, name: "edit", args: { path, oldText: "one", newText: "two" }, status });

describe("calls waiting behind an approval", () => {
  it("the asking call and a call not started after it say they wait, without a spinner; a running call still spins", () => {
    const broker = new ApprovalBroker();
    void broker.ask({ type: "toolCall", id: "e1", name: "edit", arguments: edit("e1", "a.txt", "running").args }, main);
    const draw = (item: ToolItem) =>
      stripAnsi(
        render(<ToolCallLine item={item} now={0} width={80} hold={callHold(item, broker.waitingCalls())} />).lastFrame()!,
      );
    const asking = draw(edit("e1", "a.txt", "running"));
    const after = draw(edit("e2", "b.txt", "pending"));
    expect(asking).toContain("waits for your approval");
    expect(after).toContain("waits to run");
    expect(asking).not.toMatch(SPINNER);
    expect(after).not.toMatch(SPINNER);
    expect(draw({ ...edit("g1", "c.txt", "running"), name: "grep", args: { pattern: "x" } })).toMatch(SPINNER);
    // Answered: nothing waits any more.
    broker.answer(broker.current()!.id, "yes");
    expect(draw(edit("e1", "a.txt", "running"))).toMatch(SPINNER);
  });
});
