/** Small constructors for tool results, so every tool phrases success, failure and abort alike. */
import type { ToolOutput } from "../protocol/tool.js";

/** A successful result; `details` goes only to the UI/session. */
export function ok(output: string, details?: unknown): ToolOutput {
  return details === undefined ? { output, isError: false } : { output, isError: false, details };
}

/** An expected failure the model should read and adapt to. */
export function fail(output: string, details?: unknown): ToolOutput {
  return details === undefined ? { output, isError: true } : { output, isError: true, details };
}

/** The result every tool returns when its signal is (or becomes) aborted. */
export function aborted(partial?: string): ToolOutput {
  return { output: partial ? `${partial}\naborted` : "aborted", isError: true };
}

export { errorMessage } from "../protocol/error-message.js";

/** The `code` of a Node system error (ENOENT, EACCES…), if any. */
export function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
