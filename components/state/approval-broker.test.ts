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

describe("ApprovalBroker: s saves the call's rule to the user's settings", () => {
  const cwd = "/work/project";
  const edit = (path: string) => ({ type: "toolCall" as const, id: path, name: "edit", arguments: { path, oldText: "a", newText: "b" } });

  it("offers a rule only when it can save one that covers the call", () => {
    const broker = new ApprovalBroker({ saveRule: () => {}, cwd });
    void broker.ask(call("npm test"), main);
    expect(broker.current()!.rule).toBe("bash(npm test)");
    broker.answer(broker.current()!.id, "yes");
    void broker.ask(call("npm test && rm -rf /"), main);
    expect(broker.current()!.rule).toBeUndefined();
    broker.answer(broker.current()!.id, "yes");
    void broker.ask(edit("src/a.ts"), { ...main, cwd: "/work/wt-child" });
    expect(broker.current()!.rule).toBe("edit(/work/wt-child/src/a.ts)");
    const plain = new ApprovalBroker();
    void plain.ask(call("npm test"), main);
    expect(plain.current()!.rule).toBeUndefined();
  });

  it("saves the rule, allows the call, the queued calls it covers and later ones — and still asks for others", async () => {
    const saved: string[] = [];
    const broker = new ApprovalBroker({ saveRule: (r) => saved.push(r), cwd });
    const first = broker.ask(call("npm test"), main);
    const queuedSame = broker.ask(call("npm  test"), main);
    void broker.ask(call("npm run build"), main);
    broker.answer(broker.current()!.id, "save");
    expect(await first).toEqual({ allow: true });
    expect(await queuedSame).toEqual({ allow: true });
    expect(saved).toEqual(["bash(npm test)"]);
    expect(broker.current()!.call.arguments).toEqual({ command: "npm run build" });
    expect(await broker.ask(call("npm test"), main)).toEqual({ allow: true });
    expect(broker.waitingCount()).toBe(0);
  });

  it("a rule that cannot be saved still allows the call and is reported with the reason", async () => {
    const broker = new ApprovalBroker({ saveRule: () => { throw new Error("/h/settings.json: not valid JSON"); }, cwd });
    const decision = broker.ask(call("make"), main);
    broker.answer(broker.current()!.id, "save");
    expect(await decision).toEqual({ allow: true });
    expect(broker.saveProblems()).toEqual(["the rule bash(make) was not saved: /h/settings.json: not valid JSON"]);
  });
});

describe("ApprovalBroker: 'always' never answers a firm question", () => {
  it("after a for bash, plain bash asks are allowed, but an ask rule's or a secret's question is still put to the person — queued ones too", async () => {
    const broker = new ApprovalBroker();
    const first = broker.ask(call("npm test"), main, { reason: "no rule allows", firm: false });
    const queuedFirm = broker.ask(call("git push"), main, { reason: "the rule bash(git push*) asks", firm: true });
    const queuedPlain = broker.ask(call("make"), main, { reason: "no rule allows", firm: false });
    broker.answer(broker.current()!.id, "always");
    expect(await first).toEqual({ allow: true });
    expect(await queuedPlain).toEqual({ allow: true });
    expect(broker.current()).toMatchObject({ call: { arguments: { command: "git push" } }, firm: true });
    expect(await broker.ask(call("ls"), main, { reason: "x", firm: false })).toEqual({ allow: true });
    void broker.ask(call("cat /proc/1/env*"), main, { reason: "secrets", firm: true });
    expect(broker.waitingCount()).toBe(1);
    broker.answer(broker.current()!.id, "no");
    expect(await queuedFirm).toMatchObject({ allow: false });
  });

  it("the approval policy tells the UI which questions are firm", async () => {
    const { createApprovalPolicy } = await import("../../src/core/approval.js");
    const seen: Array<{ reason: string; firm: boolean } | undefined> = [];
    const policy = createApprovalPolicy({ cwd: "/tmp", rules: { ask: ["bash(git push*)"] }, ask: async (_c, _a, why) => (seen.push(why), { allow: true }) });
    const tool = { readOnly: false } as never;
    await policy(call("npm test"), main, tool);
    await policy(call("git push origin"), main, tool);
    await policy(call("cat /proc/$PPID/environ"), main, tool);
    await policy({ type: "toolCall", id: "e", name: "edit", arguments: { path: "/etc/hosts" } }, main, tool);
    expect(seen.map((w) => w?.firm)).toEqual([false, true, true, true]);
    expect(seen[1]!.reason).toContain("bash(git push*)");
  });
});
