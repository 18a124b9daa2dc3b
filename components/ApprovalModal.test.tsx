import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { ApprovalModal } from "./ApprovalModal.js";
import type { ApprovalAnswer, ApprovalRequest } from "./hooks/approval-broker.js";
import { stripAnsi, waitUntil } from "./testing/wait-for-frame.js";

afterEach(() => cleanup());

const request: ApprovalRequest = { id: 7, call: { type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls" } }, agent: { id: "20261202-142301-ab12cd", label: "scout", profile: "scout", depth: 1 } };

function answers(key: string): Promise<Array<[number, ApprovalAnswer]>> {
  const got: Array<[number, ApprovalAnswer]> = [];
  const app = render(<ApprovalModal request={request} onAnswer={(id, a) => got.push([id, a])} />);
  app.stdin.write(key);
  return waitUntil(() => got.length > 0, { tries: 20 }).then(() => got, () => got);
}

describe("ApprovalModal", () => {
  it("asks on one line naming the tool, its arguments and the child that asks", () => {
    const frame = stripAnsi(render(<ApprovalModal request={request} onAnswer={() => {}} />).lastFrame()!);
    expect(frame).toContain('Allow bash {"command":"ls"} (asked by scout 20261202-142301-ab12cd)? [y]es / [n]o / [a]lways');
  });
  it("maps y / n / a (any case) and Esc to answers, and ignores other keys and Ctrl combinations", async () => {
    expect(await answers("y")).toEqual([[7, "yes"]]);
    expect(await answers("N")).toEqual([[7, "no"]]);
    expect(await answers("a")).toEqual([[7, "always"]]);
    expect(await answers("\u001b")).toEqual([[7, "no"]]);
    expect(await answers("x")).toEqual([]);
    expect(await answers("\u0001")).toEqual([]); // Ctrl-A is not "always"
  });
});
