/**
 * End to end, steering a run in a real terminal (tmux, 80×24, a loopback Messages-API server):
 * Esc stops a run that has no answer yet and puts the prompt (and the one queued behind it) back
 * in the box; a prompt typed during a run is queued and sent when the run ends; a 300-character
 * command is readable whole in the approval question before it is answered.
 */
import { describe, expect, it } from "vitest";
import { CLI, cliFixture } from "../helpers/cli.js";
import { sseTurn } from "../helpers/fake-anthropic-server.js";
import { hasTmux, quote, Tmux } from "./tmux.js";

const tmux = new Tmux(`ink-steer-${process.pid}`);

/** The text of the last user message of a recorded request. */
function lastUserText(body: { messages: Array<{ role: string; content: unknown }> }): string {
  const m = body.messages.filter((x) => x.role === "user").at(-1)!;
  return typeof m.content === "string" ? m.content : (m.content as Array<{ type: string; text?: string }>).map((b) => b.text ?? "").join("");
}

describe.skipIf(!hasTmux)("steering a run in a real terminal (tmux)", () => {
  const fx = cliFixture({ name: "steer", build: true, tmux });

  it("Esc restores the unanswered prompt and the queued one; a queued prompt is sent after the run; a long command is readable in the approval", async () => {
    const name = "steer";
    fx.server.reset();
    const command = `mkdir -p ./tmp-cache && ${Array.from({ length: 12 }, (_, i) => `echo step-${i}-of-the-cleanup-job`).join(" && ")} && rm -rf ./tmp-cache && echo TAIL-MARKER-END`;
    expect(command.length).toBeGreaterThan(300);
    fx.server.enqueue({ kind: "stall" }); // 1: never answers
    fx.server.enqueue(sseTurn([{ text: "LONG-RUN-DONE after a while." }], { delayMs: 150 })); // 2: takes a moment
    fx.server.enqueue(sseTurn([{ text: "QUEUED-ANSWERED." }])); // 3: the queued prompt
    fx.server.enqueue(sseTurn([{ toolUse: { id: "b1", name: "bash", input: { command } } }])); // 4: asks for the long command
    fx.server.setFallback(sseTurn([{ text: "DENIED-NOTED." }]));
    tmux.start(name, `env ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL=${quote(fx.server.url)} INK_HOME=${quote(fx.home)} ${quote(process.execPath)} ${quote(CLI)} --cwd ${quote(fx.repo)}; echo INK_EXITED=$?; sleep 60`, 80, 24);
    await tmux.waitFor(name, (s) => s.includes("Ask Ink"), "the prompt");

    // Esc: nothing was answered, so the prompt and the one queued behind it come back.
    tmux.type(name, "first question");
    tmux.keys(name, "Enter");
    await tmux.waitFor(name, (s) => s.includes("working…"), "the run");
    tmux.type(name, "queued second");
    tmux.keys(name, "Enter");
    await tmux.waitFor(name, (s) => s.includes("⏸ queued: queued second"), "the queued prompt");
    tmux.keys(name, "Escape");
    // A capture can land while tmux has applied only part of a frame's bytes (the rows above
    // already new, those below not yet): wait for the whole state asserted, not a part of it.
    const bothBack = /│ › first question\s*│\n│\s+queued second/;
    const back = await tmux.waitFor(name, (s) => s.includes("your prompt is back in the input box") && bothBack.test(s) && !s.includes("⏸ queued"), "the prompts back in the box");
    expect(back, back).toMatch(bothBack);
    expect(fx.server.requests).toHaveLength(1);
    tmux.keys(name, "C-c"); // Ctrl-C on a draft clears it
    await tmux.waitFor(name, (s) => s.includes("Ask Ink"), "the box emptied");

    // Typing ahead: the second prompt waits for the first run and is then sent on its own.
    tmux.type(name, "a long run");
    tmux.keys(name, "Enter");
    await tmux.waitFor(name, (s) => s.includes("working…"), "the long run");
    tmux.type(name, "then this one");
    tmux.keys(name, "Enter");
    await tmux.waitFor(name, (s) => s.includes("⏸ queued: then this one"), "queued");
    await tmux.waitFor(name, (s) => s.includes("QUEUED-ANSWERED.") && !s.includes("⏸ queued"), "the queued prompt answered", 400);
    expect(fx.server.requests).toHaveLength(3);
    expect(lastUserText(fx.server.requests[1]!.body)).toBe("a long run");
    expect(lastUserText(fx.server.requests[2]!.body)).toBe("then this one");

    // A 300-character command is on screen whole (wrapped) before it is answered, at 80 columns.
    tmux.type(name, "clean the cache");
    tmux.keys(name, "Enter");
    const whole = (s: string) => s.replace(/[│\n ]+/g, "").includes(command.replace(/ /g, ""));
    const asking = await tmux.waitFor(name, (s) => s.includes("Allow bash") && whole(s), "the approval with the whole command");
    expect(whole(asking)).toBe(true);
    // A key answers only once the question has been up a moment and nothing was typed for a second.
    await new Promise((r) => setTimeout(r, 1300));
    tmux.keys(name, "n");
    await tmux.waitFor(name, (s) => s.includes("DENIED-NOTED."), "the answer after the denial");
    tmux.keys(name, "C-c");
    tmux.keys(name, "C-c");
    await tmux.waitFor(name, (s) => s.includes("INK_EXITED=0"), "the CLI to exit");
  }, 90_000);
});
