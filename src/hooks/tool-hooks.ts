/**
 * PreToolUse / PostToolUse around the approval check. The check travels to every child, so the
 * hooks run for children too, with the child's `agent_id` / `agent_type`. Hooks see Claude Code's
 * tool names (`Bash`, `Edit`, `Glob`…) and input field names (`file_path`, `old_string`…) beside
 * Ink's own, and a matcher may use either name. A PreToolUse hook may rewrite the call's input
 * (`hookSpecificOutput.updatedInput`, in either naming, merged over the input it was given); the
 * rewritten input must pass the tool's schema, and the permission check then sees it.
 */
import { isAbsolute, resolve } from "node:path";
import type { AgentInfo } from "../protocol/events.js";
import type { ToolCall } from "../protocol/messages.js";
import type { OnToolCall, ToolDecision } from "../core/tool-runner.js";
import type { AnyTool } from "../protocol/tool.js";
import { hookLabel, type Hooks } from "./hooks.js";

/** Ink's tool names → Claude Code's (hooks written for Claude Code match on these). */
export const CLAUDE_TOOL_NAME: Readonly<Record<string, string>> = { bash: "Bash", read: "Read", edit: "Edit", write: "Write", grep: "Grep", find: "Glob", ls: "LS", task: "Task" };

/** Names a matcher is tried against: Claude Code's name first, then Ink's. */
export function toolNames(name: string): string[] {
  const claude = CLAUDE_TOOL_NAME[name];
  return claude ? [claude, name] : [name];
}

/** The call's arguments with Claude Code's field names added (`file_path` absolute, `old_string`, `new_string`). */
export function hookToolInput(call: ToolCall, cwd: string): Record<string, unknown> {
  const args = { ...(call.arguments as Record<string, unknown>) };
  if (typeof args.path === "string" && ["read", "edit", "write"].includes(call.name)) args.file_path = isAbsolute(args.path) ? args.path : resolve(cwd, args.path);
  if (call.name === "edit") {
    args.old_string = args.oldText;
    args.new_string = args.newText;
  }
  return args;
}

/** Claude Code's field names → Ink's, per tool (hookToolInput adds the former). */
const CLAUDE_FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  read: { file_path: "path" },
  write: { file_path: "path" },
  edit: { file_path: "path", old_string: "oldText", new_string: "newText" },
};

/**
 * The arguments a PreToolUse hook's `updatedInput` asks for: merged over the input the hook was
 * shown, Claude Code's field names mapped back to Ink's (a Claude name the hook set wins over the
 * Ink name it shadows), and the added Claude names dropped.
 */
export function rewrittenArguments(call: ToolCall, shown: Record<string, unknown>, updated: Record<string, unknown>): Record<string, unknown> {
  const fields = CLAUDE_FIELDS[call.name] ?? {};
  const args: Record<string, unknown> = { ...shown, ...updated };
  for (const [claude, ink] of Object.entries(fields)) {
    if (claude in updated) args[ink] = updated[claude];
    delete args[claude];
  }
  return args;
}

/** The call's input rewritten by `updated` and checked against the tool's schema: the new call, or why it is refused. */
function rewrite(call: ToolCall, cwd: string, tool: AnyTool, updated: { input: Record<string, unknown>; command: string }): { call: ToolCall } | { refusal: string } {
  const args = rewrittenArguments(call, hookToolInput(call, cwd), updated.input);
  const parsed = tool.schema.safeParse(args);
  if (parsed.success) return { call: { ...call, arguments: args } };
  const issues = parsed.error.issues.map((iss: { path: PropertyKey[]; message: string }) => `${iss.path.map(String).join(".") || "(input)"}: ${iss.message}`);
  return { refusal: `${hookLabel("PreToolUse", updated.command)} rewrote the input of ${call.name} into one the tool does not accept (${issues.join("; ")}); fix the hook's updatedInput` };
}

/** Fields naming the agent when it is a child (Claude Code's `agent_id` / `agent_type`). */
export function agentFields(agent: AgentInfo): Record<string, string> {
  return agent.depth > 0 ? { agent_id: agent.id, agent_type: agent.profile ?? "general-purpose" } : {};
}

function who(agent: AgentInfo): string {
  return agent.depth > 0 ? ` for subagent ${agent.label} (${agent.id})` : "";
}

/**
 * Wraps `check` so PreToolUse hooks run before it (a block refuses the call with the hook's
 * reason; an `allow` goes to `check.hookAllowed`, which lets it answer the approval question but
 * never a deny rule or a wall; anything else goes on to `check`) and PostToolUse hooks after a
 * successful call, PostToolUseFailure hooks after a failed one (their reason or context is added
 * to the result). Returns `check` itself when no tool hook is configured.
 */
export function withToolHooks(check: OnToolCall & { hookAllowed: OnToolCall }, hooks: Hooks): OnToolCall {
  if (!hooks.has("PreToolUse") && !hooks.has("PostToolUse") && !hooks.has("PostToolUseFailure")) return check;
  const wrapped: OnToolCall = async (call, agent, tool) => {
    if (hooks.has("PreToolUse")) {
      const cwd = agent.cwd ?? process.cwd();
      const names = toolNames(call.name);
      const out = await hooks.run("PreToolUse", { tool_name: names[0], tool_input: hookToolInput(call, cwd), tool_use_id: call.id, ...agentFields(agent) }, { matchOn: names });
      if (out.blocked) {
        hooks.say(`PreToolUse hook blocked ${call.name}${who(agent)}: ${out.blocked.reason}`);
        return { allow: false, reason: `a PreToolUse hook blocked this call: ${out.blocked.reason}` };
      }
      if (out.updatedInput) {
        const done = rewrite(call, cwd, tool, out.updatedInput);
        if ("refusal" in done) {
          hooks.say(`${done.refusal}${who(agent)}`);
          return { allow: false, reason: done.refusal };
        }
        hooks.say(`PreToolUse hook rewrote the input of ${call.name}${who(agent)}: ${JSON.stringify(done.call.arguments).slice(0, 200)}`);
        const rewritten = { input: done.call.arguments, note: `[PreToolUse hook] this call ran with its input rewritten to ${JSON.stringify(done.call.arguments).slice(0, 500)}` };
        const decision: ToolDecision = await (out.permission === "allow" ? check.hookAllowed : check)(done.call, agent, tool);
        return decision.allow ? { ...decision, ...rewritten } : decision;
      }
      if (out.permission === "allow") return check.hookAllowed(call, agent, tool);
    }
    return check(call, agent, tool);
  };
  wrapped.after = async (call, output, agent) => {
    if (output.isError) return afterFailure(hooks, call, output, agent);
    if (!hooks.has("PostToolUse")) return undefined;
    const names = toolNames(call.name);
    const response = { output: typeof output.output === "string" ? output.output : String(output.output), isError: false };
    const out = await hooks.run("PostToolUse", { tool_name: names[0], tool_input: hookToolInput(call, agent.cwd ?? process.cwd()), tool_response: response, tool_use_id: call.id, ...agentFields(agent) }, { matchOn: names });
    const parts: string[] = [];
    if (out.blocked) {
      hooks.say(`PostToolUse hook flagged ${call.name}${who(agent)}: ${out.blocked.reason}`);
      parts.push(`[PostToolUse hook] ${out.blocked.reason}`);
    }
    for (const c of out.context) parts.push(`[PostToolUse hook context] ${c}`);
    return parts.length > 0 ? parts.join("\n") : undefined;
  };
  return wrapped;
}

/** PostToolUseFailure after a call that returned an error: its reason or context joins the result. */
async function afterFailure(hooks: Hooks, call: ToolCall, output: { output: unknown }, agent: AgentInfo): Promise<string | undefined> {
  if (!hooks.has("PostToolUseFailure")) return undefined;
  const names = toolNames(call.name);
  const error = typeof output.output === "string" ? output.output : String(output.output);
  const out = await hooks.run("PostToolUseFailure", { tool_name: names[0], tool_input: hookToolInput(call, agent.cwd ?? process.cwd()), tool_use_id: call.id, error, is_interrupt: false, ...agentFields(agent) }, { matchOn: names });
  const parts = [...(out.blocked ? [`[PostToolUseFailure hook] ${out.blocked.reason}`] : []), ...out.context.map((c) => `[PostToolUseFailure hook context] ${c}`)];
  return parts.length > 0 ? parts.join("\n") : undefined;
}
