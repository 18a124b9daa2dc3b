import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import type { ApprovalTiming } from "../state/approval-keys.js";
import { TrustPrompt, trustKinds } from "./TrustPrompt.js";
import { waitForFrame, waitUntil } from "../testing/wait-for-frame.js";

const AT_ONCE: ApprovalTiming = { armMs: 0, quietMs: 0, now: () => Date.now() };

describe("TrustPrompt", () => {
  it("with 40 files it stays shorter than the terminal: the title, the first files and a count", async () => {
    const files = Array.from({ length: 40 }, (_, i) => `.claude/agents/agent-${String(i).padStart(2, "0")}.md`);
    const { lastFrame, unmount } = render(<TrustPrompt cwd="/p" files={files} onAnswer={() => {}} />);
    const frame = await waitForFrame(lastFrame, (f) => f.includes("more"));
    expect(frame.split("\n").length).toBeLessThanOrEqual(24);
    expect(frame).toContain("Trust this project's 40 agent profiles?");
    expect(frame).toContain("agent-00.md");
    expect(frame).toMatch(/… and (\d+) more/);
    const shown = frame.split("\n").filter((l) => l.includes("• ")).length;
    expect(shown + Number(/… and (\d+) more/.exec(frame)![1])).toBe(40);
    unmount();
  });

  it("lists the profiles and answers y / n", async () => {
    for (const [key, expected] of [["y", true], ["n", false]] as const) {
      const answers: boolean[] = [];
      const { lastFrame, stdin, unmount } = render(<TrustPrompt cwd="/p" files={[".ink/agents/scout.md", ".ink/agents/worker.md"]} onAnswer={(a) => answers.push(a)} timing={AT_ONCE} />);
      const frame = await waitForFrame(lastFrame, (f) => f.includes("worker.md"));
      expect(frame).toContain("Trust this project's 2 agent profiles?");
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

  it("counts in the title everything trusting loads: profiles, hooks, command files, skills, .mcp.json's servers, permission rules", async () => {
    const files = [
      ".claude/agents/a.md",
      ".claude/agents/b.md",
      ".claude/agents/c.md",
      ".claude/settings.json",
      ".claude/settings.json runs the hook Stop: ./x.sh",
      ".claude/settings.json runs the hook PreToolUse [Bash]: ./guard.sh",
      ".claude/settings.json sets 3 permission rules: allow Bash(npm test), Read; deny Read(./.env)",
      ".claude/commands/review.md",
      ".claude/commands/ship.md",
      ".claude/commands/git/log.md",
      ".ink/commands/x.md",
      ".claude/skills/pdf/SKILL.md",
      ".mcp.json",
      ".mcp.json starts the MCP server docs: npx docs-mcp",
      ".mcp.json starts the MCP server web: https://mcp.example/sse",
    ];
    const { lastFrame, unmount } = render(<TrustPrompt cwd="/p" files={files} onAnswer={() => undefined} />);
    const frame = (await waitForFrame(lastFrame, (f) => f.includes("skip them"))).replace(/[ │]*\n[ │]*/g, " ");
    expect(frame).toContain("Trust this project's 3 agent profiles, 2 hooks, 4 command files, 1 skill, .mcp.json with 2 servers and 3 permission rules?");
    expect(frame).toContain("MCP servers run their commands on your machine");
    unmount();
  });

  it("with a two-row title, hooks and MCP servers, a long list still fits 24 rows", async () => {
    const files = [
      ...Array.from({ length: 12 }, (_, i) => `.claude/agents/agent-${i}.md`),
      ".claude/commands/review.md",
      ".claude/skills/pdf/SKILL.md",
      ".claude/settings.json",
      ".claude/settings.json runs the hook Stop: ./x.sh",
      ".claude/settings.json sets 1 permission rule: deny Bash",
      ".mcp.json",
      ".mcp.json starts the MCP server docs: npx docs-mcp",
    ];
    const { lastFrame, unmount } = render(<TrustPrompt cwd="/p" files={files} onAnswer={() => undefined} />);
    const frame = await waitForFrame(lastFrame, (f) => f.includes("skip them"));
    expect(frame.split("\n").length).toBeLessThanOrEqual(24);
    unmount();
  });

  it("a settings file with neither hooks nor rules is named as settings; a .mcp.json without servers by its name", () => {
    expect(trustKinds([".ink/settings.json", ".mcp.json"])).toEqual([".mcp.json", "settings"]);
    expect(trustKinds([".claude/settings.json", ".claude/settings.json sets 1 permission rule: deny Bash"])).toEqual(["1 permission rule"]);
  });

  it("type-ahead never answers: `yes` typed while Ink starts, a y inside the arming time and a y + Enter chunk go to the prompt; a lone y once settled trusts", async () => {
    let clock = 1000;
    const timing: ApprovalTiming = { armMs: 400, quietMs: 1000, now: () => clock };
    const answers: boolean[] = [];
    const typed: string[] = [];
    const { lastFrame, stdin, unmount } = render(<TrustPrompt cwd="/p" files={[".claude/settings.json"]} onAnswer={(a) => answers.push(a)} timing={timing} onTypeAhead={(t) => typed.push(t)} />);
    await waitForFrame(lastFrame, (f) => f.includes("settings.json"));
    stdin.write("yes");
    clock += 100;
    stdin.write("y");
    clock += 2000;
    stdin.write("y\r");
    await waitUntil(() => typed.length === 3, { what: "the typing kept for the prompt" });
    expect(answers).toEqual([]);
    // Kept for the prompt, its Enter a space (nothing is sent before the prompt is seen).
    expect(typed).toEqual(["yes", "y", "y "]);
    clock += 2000;
    stdin.write("y");
    await waitUntil(() => answers.length > 0, { what: "the answer" });
    expect(answers).toEqual([true]);
    unmount();
  });

  it("n typed as the start of a sentence does not skip; Ctrl-C skips at once", async () => {
    const clock = 5000;
    const timing: ApprovalTiming = { armMs: 400, quietMs: 1000, now: () => clock };
    const answers: boolean[] = [];
    const typed: string[] = [];
    const { lastFrame, stdin, unmount } = render(<TrustPrompt cwd="/p" files={["a.md"]} onAnswer={(a) => answers.push(a)} timing={timing} onTypeAhead={(t) => typed.push(t)} />);
    await waitForFrame(lastFrame, (f) => f.includes("a.md"));
    stdin.write("n");
    stdin.write("ow fix it");
    stdin.write("\u0003");
    await waitUntil(() => answers.length > 0, { what: "the answer" });
    expect(answers).toEqual([false]);
    expect(typed.join("")).toBe("now fix it");
    unmount();
  });
});
