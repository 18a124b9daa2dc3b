import { describe, expect, it } from "vitest";
import { EventStream } from "../../src/protocol/event-stream.js";

describe("EventStream", () => {
  it("buffers events for late consumers and resolves the result", async () => {
    const s = new EventStream<number, string>();
    s.push(1);
    s.push(2);
    setTimeout(() => (s.push(3), s.end("done")), 5);
    const seen: number[] = [];
    for await (const n of s) seen.push(n);
    expect(seen).toEqual([1, 2, 3]);
    expect(await s.result()).toBe("done");
    s.push(4);
    expect(s.ended).toBe(true);
  });

  it("fails: iteration ends and result rejects", async () => {
    const s = new EventStream<number, string>();
    s.push(1);
    s.fail(new Error("boom"));
    const seen: number[] = [];
    for await (const n of s) seen.push(n);
    expect(seen).toEqual([1]);
    await expect(s.result()).rejects.toThrow("boom");
  });
});
