/** MainInbox: messages for the running main agent — refused when no run is open, each read once, unread ones reported. */
import { describe, expect, it } from "vitest";
import { MainInbox } from "../../src/core/main-inbox.js";
import type { AgentEvent } from "../../src/protocol/events.js";

describe("MainInbox", () => {
  it("takes messages only while a run is open, hands each out once, and reports one sent after the last boundary", async () => {
    const inbox = new MainInbox();
    expect(inbox.push("too early", "user")).toBe(false);
    const events: AgentEvent[] = [];
    const taken = await inbox.during(async () => {
      expect(inbox.push("look at billing too", "user")).toBe(true);
      const first = inbox.take();
      expect(inbox.take()).toEqual([]);
      inbox.push("arrives as the run ends", "user");
      return first;
    }, (e) => events.push(e));
    expect(taken).toEqual([{ text: "look at billing too", from: "user", content: expect.stringMatching(/^\[Message from the person watching you work.*\n\nlook at billing too$/) }]);
    expect(events).toEqual([{ type: "warning", source: "loop", message: expect.stringContaining('"arrives as the run ends"') }]);
    expect(inbox.open).toBe(false);
    expect(inbox.push("after", "user")).toBe(false);
  });
});
