/**
 * Running a command file the same way from every front end (TUI, `-p`, ACP): finding the command a
 * typed line names, substituting its arguments, and running its `` !`cmd` `` context commands
 * (Claude Code's bash context: each is run through the caller's approval check as a `bash` call and
 * its output replaces it; a refused or failed one is replaced by a line saying so). Never throws.
 */
import type { Provider } from "../protocol/provider.js";
import { resolveModelAlias } from "../protocol/model-catalog.js";
import { BUILTIN_COMMAND_NAMES, expandCommand, substituteArguments, type FileCommand } from "./command-files.js";
import type { Skill } from "../skills/skill-parse.js";
import { skillText } from "../skills/skill-tool.js";

/** One typed line that names a command file: the command and what was typed after its name. */
export interface CommandInvocation {
  command: FileCommand;
  args: string;
}

/**
 * The command file `text` names (`/name args…`, the name in any case), or undefined when the text
 * is not a slash command or no file has that name.
 */
export function findCommandInvocation(text: string, commands: readonly FileCommand[]): CommandInvocation | undefined {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  const name = `/${m[1]!.toLowerCase()}`;
  const command = commands.find((c) => c.name.toLowerCase() === name || c.aliases?.some((a) => a.toLowerCase() === name));
  return command ? { command, args: (m[2] ?? "").trim() } : undefined;
}

/** A `` !`command` `` in a command file's body: Claude Code's bash context. */
const CONTEXT_COMMAND = /!`([^`\n]+)`/g;

/** What running one context command gave: its output, or an error (a refusal, a failure) as text. */
export interface ContextCommandResult {
  output: string;
  isError: boolean;
}

/**
 * The prompt of `command` run with `args`: the arguments substituted (expandCommand), then each
 * `` !`cmd` `` of the file run by `run` in order and replaced by its output. The arguments reach the
 * command's own text (`` !`git diff $1` ``), but output is never searched for more arguments or commands.
 */
export async function expandCommandWithContext(command: Pick<FileCommand, "body">, args: string, run: (command: string) => Promise<ContextCommandResult>): Promise<string> {
  const found: string[] = [];
  // Each context command becomes a marker the argument substitution cannot touch.
  const marked = command.body.replace(CONTEXT_COMMAND, (_, cmd: string) => `\u0000${found.push(cmd) - 1}\u0000`);
  if (found.length === 0) return expandCommand(command, args);
  const expanded = expandCommand({ body: marked }, args);
  const outputs: string[] = [];
  for (const raw of found) {
    const cmd = substituteArguments(raw, args);
    const result = await run(cmd);
    const text = result.output.replace(/\s+$/, "");
    outputs.push(result.isError ? `(\`${cmd}\` did not run cleanly: ${text})` : text);
  }
  return expanded.replace(/\u0000(\d+)\u0000/g, (_, i: string) => outputs[Number(i)]!);
}

/**
 * The model of a command file's turn: its `model:` (an alias resolved to an id), or undefined for the
 * session's — also when the provider does not serve it, with a warning naming the file and the model.
 */
export function commandModel(command: Pick<FileCommand, "name" | "model" | "path">, provider: Pick<Provider, "name" | "ownsModel" | "modelCatalog">, sessionModel: string): { model?: string; warning?: string } {
  if (command.model === undefined || command.model === "inherit") return {};
  // Claude Code's aliases: the newest of the line the provider lists, else the offline table.
  const model = resolveModelAlias(command.model, provider.modelCatalog?.()?.models);
  if (provider.ownsModel && !provider.ownsModel(model)) return { warning: `${command.name}: the ${provider.name} provider does not serve model "${model}" (${command.path}); running on ${sessionModel}` };
  return { model };
}

/**
 * The skills the person may run as `/skill-name` (as Claude Code does), as commands: the prompt is
 * the skill's instructions (skillText; `$ARGUMENTS` substituted, or what was typed appended). A
 * built-in command or a command file of the same name wins.
 */
export function skillCommands(skills: readonly Skill[], commands: readonly FileCommand[]): FileCommand[] {
  const taken = new Set([...BUILTIN_COMMAND_NAMES, ...commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]).map((n) => n.toLowerCase())]);
  return skills
    .filter((s) => !taken.has(`/${s.name.toLowerCase()}`))
    .map((s) => ({ name: `/${s.name}`, description: s.description.replace(/\s+/g, " "), fork: false, body: skillText(s), path: s.path, source: "skill" as const }));
}
