import { describe, expect, it } from "vitest";
import type { AgentInfo } from "../../src/protocol/events.js";
import type { ToolCall } from "../../src/protocol/messages.js";
import { ApprovalBroker } from "./approval-broker.js";

const main: AgentInfo = { id: "main", label: "main", depth: 0 };
const scout: AgentInfo = { id: "20261202-142301-ab12cd", label: "scout", profile: "scout", depth: 1 };
const call = (id: string, name: string): ToolCall => ({ type: "toolCall", id, name, arguments: {} });

describe("ApprovalBroker", () => {
  it("queues questions, shows one at a time and resolves each with the answer", async () => {
    const broker = new ApprovalBroker();
    let changes = 0;
    broker.subscribe(() => changes++);
    const first = broker.ask(call("1", "bash"), main);
    const second = broker.ask(call("2", "write"), scout);
    expect(broker.current()?.call.id).toBe("1");
    broker.answer(broker.current()!.id, "no");
    expect(await first).toEqual({ allow: false, reason: expect.stringContaining("declined this bash call") });
    expect(broker.current()).toMatchObject({ call: { id: "2" }, agent: { label: "scout" } });
    broker.answer(broker.current()!.id, "yes");
    expect(await second).toEqual({ allow: true });
    expect(broker.current()).toBeUndefined();
    expect(changes).toBe(4);
  });
  it("'always' allows the tool for the session, including requests already waiting", async () => {
    const broker = new ApprovalBroker();
    const a = broker.ask(call("1", "bash"), main);
    const b = broker.ask(call("2", "write"), main);
    const c = broker.ask(call("3", "bash"), scout);
    broker.answer(broker.current()!.id, "always");
    expect(await a).toEqual({ allow: true });
    expect(await c).toEqual({ allow: true });
    expect(broker.current()?.call.id).toBe("2");
    expect(await broker.ask(call("4", "bash"), main)).toEqual({ allow: true });
    expect(broker.alwaysAllowed()).toEqual(["bash"]);
    broker.cancelAll("the run was stopped");
    expect(await b).toEqual({ allow: false, reason: "the run was stopped" });
  });
});
