import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { Prompt } from "./Prompt.js";
import { waitForFrame } from "./testing/wait-for-frame.js";

afterEach(() => cleanup());

describe("Prompt", () => {
  it("submits on Enter, clears, and recalls earlier inputs with ↑/↓", async () => {
    const sent: string[] = [];
    const app = render(<Prompt onSubmit={(t) => (sent.push(t), true)} history={["older", "newer"]} focus busy={false} />);
    app.stdin.write("draft");
    await waitForFrame(app.lastFrame, (f) => f.includes("draft"));
    app.stdin.write("\u001b[A");
    await waitForFrame(app.lastFrame, (f) => f.includes("newer"), { what: "↑ to recall the newest entry" });
    app.stdin.write("\u001b[A");
    await waitForFrame(app.lastFrame, (f) => f.includes("older"));
    app.stdin.write("\u001b[B");
    await waitForFrame(app.lastFrame, (f) => f.includes("newer"));
    app.stdin.write("\u001b[B");
    await waitForFrame(app.lastFrame, (f) => f.includes("draft"), { what: "↓ past the newest to restore the draft" });
    app.stdin.write("\r");
    await waitForFrame(app.lastFrame, (f) => !f.includes("draft"), { what: "the box to clear" });
    expect(sent).toEqual(["draft"]);
  });

  it("treats text arriving together with Enter as typed-then-submitted", async () => {
    const sent: string[] = [];
    const app = render(<Prompt onSubmit={(t) => (sent.push(t), true)} history={[]} focus busy={false} />);
    app.stdin.write("where is login?\r");
    await waitForFrame(app.lastFrame, () => sent.length === 1);
    expect(sent).toEqual(["where is login?"]);
  });

  it("keeps the text when the input is refused, and ignores keys when unfocused", async () => {
    const app = render(<Prompt onSubmit={() => false} history={[]} focus busy />);
    await waitForFrame(app.lastFrame, (f) => f.includes("working…"));
    app.stdin.write("next question");
    await waitForFrame(app.lastFrame, (f) => f.includes("next question"));
    app.stdin.write("\r");
    await waitForFrame(app.lastFrame, (f) => f.includes("next question"));
    const off = render(<Prompt onSubmit={() => true} history={[]} focus={false} busy={false} />);
    off.stdin.write("typed");
    await new Promise((r) => setTimeout(r, 30));
    expect(off.lastFrame()).not.toContain("typed");
  });

  it("ignores keys (text, recall, Enter) while unfocused, takes them once focused, and clearOnBlur forgets the text", async () => {
    const sent: string[] = [];
    const view = (focus: boolean) => <Prompt onSubmit={(t) => (sent.push(t), true)} history={["old"]} focus={focus} busy={false} clearOnBlur label="↻ resume x" />;
    const app = render(view(false));
    app.stdin.write("lost\u001b[A\r");
    app.rerender(view(true));
    app.stdin.write("kept");
    await waitForFrame(app.lastFrame, (f) => f.includes("↻ resume x › kept"), { what: "the text typed right after focus" });
    app.rerender(view(false));
    await waitForFrame(app.lastFrame, (f) => !f.includes("kept"), { what: "the text to be forgotten on blur" });
    app.rerender(view(true));
    app.stdin.write("go\r");
    await waitForFrame(app.lastFrame, () => sent.length === 1);
    expect(sent).toEqual(["go"]);
    expect(app.frames.some((f) => f.includes("lost") || f.includes("old"))).toBe(false);
  });
});
