/**
 * The main agent's system prompt: identity, environment, working rules, tools and the agent
 * profiles the model may delegate to. Children get this same text plus the Subagent-mode section
 * (see src/subagents/runtime/child-prompt.ts), so a resumed child can be checked against it.
 */
import type { AnyTool } from "../protocol/tool.js";

export interface SystemPromptInput {
  cwd: string;
  tools: readonly AnyTool[];
  /** Profiles the model may pass as `task({agent})`, one `- name: description` per line (see formatProfileList). */
  agentList?: string;
  /** Skills the model may load with the skill tool (see formatSkillList); shown when the pool has `skill`. */
  skillList?: string;
  /** Extra project context (e.g. an AGENTS.md), appended verbatim. */
  projectContext?: string;
}

/** Builds the main agent's system prompt. Deterministic for equal inputs (no clock, no randomness). */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const lines = [
    "You are Ink, an open-source AI coding assistant and agent harness for the terminal.",
    "",
    "# Environment",
    `- Working directory: ${input.cwd}`,
    `- Platform: ${process.platform}`,
    "",
    "# Core rules",
    "1. Work inside the current working directory unless the user explicitly asks otherwise.",
    "2. Inspect before you modify: read a file (or search with grep/find) before editing it. Never guess file contents.",
    "3. After editing code, verify the change — run it or its tests.",
    "4. Keep answers short and concrete: cite files as path:line.",
    "5. A refused tool call comes back with its reason; adapt instead of retrying the same call.",
    "",
    "# Tools",
    ...input.tools.map((t) => `- ${t.name}: ${firstLine(t.description)}`),
  ];
  if (input.tools.some((t) => t.name === "task")) {
    lines.push(
      "",
      "# Delegation",
      "Use the task tool for self-contained work (an investigation, an isolated change) so its details stay out of this conversation; only the child's report comes back.",
      "Several task calls in one message run in parallel. Children see none of this conversation: put every requirement in the prompt.",
    );
    // No agents defined: no roster block (the task tool's `agent` parameter already says to omit it).
    if (input.agentList) lines.push("", "# Available agents", input.agentList);
  }
  if (input.skillList && input.tools.some((t) => t.name === "skill")) lines.push("", "# Skills", input.skillList);
  if (input.projectContext) lines.push("", "# Project context", input.projectContext.trim());
  return lines.join("\n");
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.trim();
}
