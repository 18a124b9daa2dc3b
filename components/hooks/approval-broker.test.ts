import { describe, expect, it } from "vitest";
import { ApprovalBroker } from "./approval-broker.js";

const call = (command: string) => ({ type: "toolCall" as const, id: command, name: "bash", arguments: { command } });
const main = { id: "main", label: "main", depth: 0 };

describe("ApprovalBroker", () => {
  it("counts the requests waiting behind the shown one", () => {
    const broker = new ApprovalBroker();
    expect(broker.waitingCount()).toBe(0);
    void broker.ask(call("a"), main);
    void broker.ask(call("b"), main);
    void broker.ask(call("c"), main);
    expect(broker.waitingCount()).toBe(2);
    broker.answer(broker.current()!.id, "yes");
    expect(broker.waitingCount()).toBe(1);
  });

  it("a 'no' with a reason passes the reason to the tool decision", async () => {
    const broker = new ApprovalBroker();
    const decision = broker.ask(call("rm -rf x"), main);
    broker.answer(broker.current()!.id, "no", "keep x");
    expect(await decision).toEqual({ allow: false, reason: expect.stringContaining("keep x") });
  });
});
