/**
 * End to end, children that work beside the person (tmux, 80×24, a loopback Messages-API server):
 * the main agent starts two background children and its turn ends; the person keeps talking to
 * the main agent while they stream; the person corrects one child from its pane; both reports
 * reach the main agent without being asked for — each exactly once — and the screen says so.
 */
import { describe, expect, it } from "vitest";
import { CLI, cliFixture } from "../helpers/cli.js";
import { sseTurn, type FakeResponse } from "../helpers/fake-anthropic-server.js";
import { hasTmux, quote, Tmux } from "./tmux.js";

const tmux = new Tmux(`ink-bg-${process.pid}`);

type Body = { system?: unknown; messages: Array<{ role: string; content: unknown }> };

/** Every text of a message (text blocks and tool results' text), joined. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return (content as Array<{ type: string; text?: string; content?: unknown }>).map((b) => b.text ?? (b.content === undefined ? "" : textOf(b.content))).join("\n");
}
const isChild = (b: Body) => JSON.stringify(b.system ?? "").includes("# Subagent mode");
const firstUser = (b: Body) => textOf(b.messages[0]?.content ?? "");
const lastUser = (b: Body) => textOf(b.messages.filter((m) => m.role === "user").at(-1)?.content ?? "");
const allText = (b: Body) => b.messages.map((m) => textOf(m.content)).join("\n");

/** Children ids whose reports a request carries (each `<background-report child="…">` once per delivery). */
function carriedReports(b: Body): string[] {
  return [...allText(b).matchAll(/<background-report child="([^"]*)"/g)].map((m) => m[1]!);
}

describe.skipIf(!hasTmux)("background children in a real terminal (tmux, 80×24)", () => {
  const fx = cliFixture({ name: "bg", build: true, tmux });

  it("two background children stream while the person talks to the main agent; one is corrected from its pane; both reports arrive by themselves", async () => {
    const name = "bg";
    let readCalls = 0;
    fx.server.reset();
    fx.server.setRouter((body: Body): FakeResponse | undefined => {
      if (isChild(body)) {
        if (firstUser(body).includes("login module")) {
          // The login child reads slowly, turn after turn, until the person's correction reaches it.
          if (allText(body).includes("STEER-NOTE")) return sseTurn([{ text: "A-REPORT: login is in src/auth/login.ts; the tests are in test/login.test.ts as you asked." }]);
          readCalls++;
          return sseTurn([{ text: `Reading the login code, pass ${readCalls}.` }, { toolUse: { id: `r${readCalls}`, name: "read", input: { path: "src/auth/login.ts" } } }], { delayMs: 400 });
        }
        return sseTurn([{ text: "B-REPORT: invoice totals are summed in src/billing/invoice.ts." }], { delayMs: 700 });
      }
      const last = lastUser(body);
      if (body.messages.length === 1 && last.includes("look into login and billing")) {
        return sseTurn([
          { text: "Starting two background investigations." },
          { toolUse: { id: "t1", name: "task", input: { prompt: "investigate the login module", description: "investigate login", background: true } } },
          { toolUse: { id: "t2", name: "task", input: { prompt: "investigate billing totals", description: "investigate billing", background: true } } },
        ]);
      }
      if (last.includes("<background-report")) return sseTurn([{ text: `DELIVERY-ACK ${carriedReports(body).length}` }]);
      if (last.includes("running in the background")) return sseTurn([{ text: "STARTED-BOTH: they run beside us." }]);
      if (last.includes("two plus two")) return sseTurn([{ text: "MAIN-ANSWER-FOUR" }]);
      return sseTurn([{ text: "MAIN-OTHER" }]);
    });
    tmux.start(name, `env ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL=${quote(fx.server.url)} INK_HOME=${quote(fx.home)} ${quote(process.execPath)} ${quote(CLI)} --cwd ${quote(fx.repo)}; echo INK_EXITED=$?; sleep 60`, 80, 24);
    await tmux.waitFor(name, (s) => s.includes("Ask Ink"), "the prompt");

    tmux.type(name, "look into login and billing");
    tmux.keys(name, "Enter");
    // The main agent's turn ends while both children keep working.
    await tmux.waitFor(name, (s) => s.includes("STARTED-BOTH") && /investigate login/.test(s) && /investigate billing/.test(s), "the turn to end with both children running");

    // The person keeps talking to the main agent while the children stream.
    tmux.type(name, "what is two plus two");
    tmux.keys(name, "Enter");
    // Waited for whole (a capture can land mid-frame).
    const talked = await tmux.waitFor(name, (s) => s.includes("MAIN-ANSWER-FOUR") && /investigate login[^\n]*running|running[^\n]*investigate login/.test(s), "the main agent's answer while children run");
    expect(talked).toMatch(/investigate login[^\n]*running|running[^\n]*investigate login/);

    // Correct the login child from its pane: Tab to its pane (the order of panes is not fixed), type.
    let boxed = "";
    for (let i = 0; i < 4 && !boxed; i++) {
      tmux.keys(name, "Tab");
      await tmux.waitFor(name, (s) => s.includes("^X stop"), "a focused pane");
      tmux.type(name, "S");
      const s = await tmux.waitFor(name, (t) => t.includes("✉ message"), "the message box");
      if (/✉ message general · investigate l/.test(s)) boxed = s; // the label is cut to fit
      else tmux.keys(name, "Escape"); // the other child's box: back to its pane, try the next one
    }
    expect(boxed, "the login child's message box").not.toBe("");
    tmux.type(name, "TEER-NOTE please look at the tests too");
    tmux.keys(name, "Enter");
    await tmux.waitFor(name, (s) => /✉ to general · investigate l\S* \[[0-9a-f]{6}\]: STEER-NOTE please look at the tests too\s+— queued/.test(s), "the message queued");

    // Both reports reach the main agent by themselves.
    // The ack names how many reports its request carried: the reports may come in one turn or two.
    const done = await tmux.waitFor(name, (s) => /DELIVERY-ACK 2/.test(s) && !/· running/.test(s) && /background child(ren)? \[[^\]]+\][^\n]*(ended|started)/.test(s), "both reports delivered", 600);
    expect(done).toMatch(/background child(ren)? \[[^\]]+\][^\n]*(ended|started)/);
    const mainRequests = fx.server.requests.map((r) => r.body as Body).filter((b) => !isChild(b));
    const last = mainRequests.at(-1)!;
    const carried = carriedReports(last);
    expect(carried).toHaveLength(2); // each report exactly once in the main agent's history
    expect(new Set(carried).size).toBe(2);
    expect(allText(last)).toContain("A-REPORT: login is in src/auth/login.ts");
    expect(allText(last)).toContain("B-REPORT: invoice totals");
    // The correction entered the login child's history at a turn boundary: after a tool result, never between a call and its result.
    const corrected = fx.server.requests.map((r) => r.body as Body).find((b) => isChild(b) && allText(b).includes("STEER-NOTE"))!;
    expect(corrected).toBeDefined();
    for (let i = 0; i < corrected.messages.length; i++) {
      const m = corrected.messages[i]!;
      const calls = Array.isArray(m.content) ? (m.content as Array<{ type: string }>).filter((b) => b.type === "tool_use").length : 0;
      if (m.role === "assistant" && calls > 0) {
        const next = corrected.messages[i + 1]!;
        expect((next.content as Array<{ type: string }>).filter((b) => b.type === "tool_result")).toHaveLength(calls);
      }
    }
    expect(mainRequests.some((b) => lastUser(b).includes("two plus two"))).toBe(true);

    tmux.keys(name, "C-c");
    tmux.keys(name, "C-c");
    await tmux.waitFor(name, (s) => s.includes("INK_EXITED=0"), "the CLI to exit");
  }, 120_000);
});
