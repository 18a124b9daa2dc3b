import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { TrustPrompt } from "./TrustPrompt.js";
import { waitForFrame, waitUntil } from "./testing/wait-for-frame.js";

describe("TrustPrompt", () => {
  it("with 40 files it stays shorter than the terminal: the title, the first files and a count", async () => {
    const files = Array.from({ length: 40 }, (_, i) => `.claude/agents/agent-${String(i).padStart(2, "0")}.md`);
    const { lastFrame, unmount } = render(<TrustPrompt cwd="/p" files={files} onAnswer={() => {}} />);
    const frame = await waitForFrame(lastFrame, (f) => f.includes("more"));
    expect(frame.split("\n").length).toBeLessThanOrEqual(24);
    expect(frame).toContain("Trust the agent profiles of this project?");
    expect(frame).toContain("agent-00.md");
    expect(frame).toMatch(/… and (\d+) more/);
    const shown = frame.split("\n").filter((l) => l.includes("• ")).length;
    expect(shown + Number(/… and (\d+) more/.exec(frame)![1])).toBe(40);
    unmount();
  });

  it("lists the profiles and answers y / n", async () => {
    for (const [key, expected] of [["y", true], ["n", false]] as const) {
      const answers: boolean[] = [];
      const { lastFrame, stdin, unmount } = render(<TrustPrompt cwd="/p" files={[".ink/agents/scout.md", ".ink/agents/worker.md"]} onAnswer={(a) => answers.push(a)} />);
      const frame = await waitForFrame(lastFrame, (f) => f.includes("worker.md"));
      expect(frame).toContain("Trust the agent profiles of this project?");
      expect(frame).toContain(".ink/agents/scout.md");
      stdin.write(key);
      await waitUntil(() => answers.length > 0);
      expect(answers).toEqual([expected]);
      unmount();
    }
  });

  it("names each hook command a project settings file would run, and says hooks run on this machine", async () => {
    const files = [".claude/settings.json", ".claude/settings.json runs the hook PreToolUse [Bash]: ./guard.sh"];
    const { lastFrame, unmount } = render(<TrustPrompt cwd="/p" files={files} onAnswer={() => undefined} />);
    const frame = await waitForFrame(lastFrame, (f) => f.includes("guard.sh"));
    expect(frame).toContain("runs the hook PreToolUse [Bash]: ./guard.sh");
    expect(frame).toContain("Hooks run their commands on your machine");
    unmount();
    const plain = render(<TrustPrompt cwd="/p" files={[".claude/settings.json"]} onAnswer={() => undefined} />);
    expect(await waitForFrame(plain.lastFrame, (f) => f.includes("settings.json"))).not.toContain("Hooks run");
    plain.unmount();
  });

  it("answers a y that arrives with its Enter in one chunk, once (a later n in the chunk does not answer again)", async () => {
    for (const [chunk, expected] of [["y\r", true], ["nY\r", false]] as const) {
      const answers: boolean[] = [];
      const { lastFrame, stdin, unmount } = render(<TrustPrompt cwd="/p" files={["a.md"]} onAnswer={(a) => answers.push(a)} />);
      await waitForFrame(lastFrame, (f) => f.includes("a.md"));
      stdin.write(chunk);
      await waitUntil(() => answers.length > 0, { what: `the answer to ${JSON.stringify(chunk)}` });
      expect(answers).toEqual([expected]);
      unmount();
    }
  });
});
