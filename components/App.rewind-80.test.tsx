/** /rewind's listing at 80 columns, with and without the sidebar (issue #40): no line wider than the terminal, what matters not cut. */
import stringWidth from "string-width";
import { afterEach, expect, it } from "vitest";
import type { ModelRequest } from "../src/protocol/provider.js";
import { renderApp, type AppHarness } from "./testing/app-harness.js";
import { resizeColumns, screenOf } from "./testing/resize.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const lastUser = (r: ModelRequest) => {
  const m = r.messages.at(-1);
  return m?.role === "user" && typeof m.content === "string" ? m.content : undefined;
};
const widest = (frame: string) => Math.max(...frame.split("\n").map((l) => stringWidth(l)));

it("the /rewind listing fits 80 columns, and still names each turn's files with the sidebar open", async () => {
  h = renderApp((r) => (lastUser(r) ? { toolCalls: [{ name: "write", arguments: { path: "src/components/a-rather-long-file-name.ts", content: "x\ny\n" } }] } : { text: "written" }), { screenMode: "fullscreen", session: { approval: { mode: "yolo" } as never } });
  await resizeColumns(h.app, 80);
  await typeAndSubmit(h.app, "write the first long file for the eighty column listing test please");
  await waitForFrame(() => screenOf(h!.app), (f) => f.includes("written") && f.includes("Enter send"));
  await typeAndSubmit(h.app, "/rewind");
  const listing = await waitForFrame(() => screenOf(h!.app), (f) => f.includes("Turns (rewinding"), { what: "the listing" });
  expect(widest(listing)).toBeLessThanOrEqual(80);
  const flat = listing.replace(/\s*\n\s*/g, " ");
  expect(flat).toContain("turn 1");
  expect(flat).toContain("src/components/a-rather-long-file-name.ts +2 −0");
  expect(flat).toContain("/rewind <turn> [files|conversation|both]");
  h.app.stdin.write("\t");
  const side = await waitForFrame(() => screenOf(h!.app), (f) => f.includes("Child sessions"), { what: "the sidebar" });
  expect(widest(side)).toBeLessThanOrEqual(80);
  expect(side.replace(/\s*\n\s*/g, " ")).toMatch(/a-rather-long-file-\s?name\.ts/);
});
