import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptyUsage } from "../../src/protocol/messages.js";
import { SessionStore } from "../../src/session/store.js";
import { childLabel, childOverlay } from "./child-transcript.js";
import type { SidebarRow } from "./sidebar-rows.js";

let home = "";
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "ink-overlay-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const row = (id: string, extra: Partial<SidebarRow> = {}): SidebarRow => ({ id, status: "ok", prompt: "p", at: 1_000, current: true, ...extra });

describe("childOverlay", () => {
  it("loads the child's saved conversation and adds the result the main agent got", () => {
    const store = new SessionStore(home);
    const w = store.create({ kind: "child", cwd: "/p", provider: "x", model: "m", profile: "scout", fingerprint: "f", toolNames: ["read"], prompt: "find it" }, { id: "20260101-000000-abc123" });
    w.append({ type: "message", message: { role: "user", content: "find it" } });
    w.append({ type: "message", message: { role: "assistant", content: [{ type: "text", text: "FOUND in a.ts" }], stopReason: "end_turn", usage: emptyUsage() } });
    const o = childOverlay(store, row(w.id, { profile: "scout", result: "FOUND in a.ts\n\n[task] ok · 1 turn" }), 60, 181_000);
    expect(childLabel({ id: w.id, profile: "scout" })).toBe("scout [abc123]");
    expect(o.title).toBe("scout · p [abc123] · ok · 3m ago");
    // The same age the sidebar shows: a child that ended 20s ago says "<1m", as its row does.
    expect(childOverlay(undefined, row(w.id, { profile: "scout" }), 60, 21_000).title).toBe("scout · p [abc123] · ok · <1m ago");
    const text = o.lines.map((l) => l.text);
    expect(text).toContain("› find it");
    expect(text).toContain("FOUND in a.ts");
    expect(text).toContain("── result returned to the main agent ──");
    expect(text).toContain("[task] ok · 1 turn");
    expect(text).toContain("(the child's last reply above, then:)");
    expect(text.filter((l) => l === "FOUND in a.ts")).toHaveLength(1); // the report is not repeated
  });

  it("says clearly when the transcript cannot be loaded or sessions are not saved", () => {
    const missing = childOverlay(new SessionStore(home), row("20260101-000000-ffffff"), 60, 0);
    expect(missing.lines[0]).toMatchObject({ tone: "error", text: expect.stringContaining("cannot load the transcript of 20260101-000000-ffffff: unknown session") });
    const unsaved = childOverlay(undefined, row("x-123456", { result: "REPORT" }), 60, 0);
    expect(unsaved.lines[0]!.text).toContain("does not save sessions");
    expect(unsaved.lines.map((l) => l.text)).toContain("REPORT");
    expect(childLabel({ id: "a-b-c0ffee" })).toBe("general [c0ffee]");
  });
});
