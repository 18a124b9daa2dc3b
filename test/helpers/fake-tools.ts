/** Small in-memory tools for loop tests: they record when they start and end. */
import { z } from "zod";
import type { AnyTool, Tool } from "../../src/protocol/tool.js";

export interface Timeline {
  log: string[];
}

/** A tool that records start/end in `timeline.log` and waits `ms` (or until aborted). */
export function sleeper(name: string, timeline: Timeline, opts: { concurrent: boolean; ms?: number }): AnyTool {
  const tool: Tool<z.ZodObject<{ label: z.ZodString }>> = {
    name,
    description: `test tool ${name}`,
    schema: z.object({ label: z.string() }),
    concurrent: opts.concurrent,
    readOnly: opts.concurrent,
    async execute(args, ctx) {
      timeline.log.push(`start ${args.label}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, opts.ms ?? 40);
        ctx.signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
      });
      timeline.log.push(`end ${args.label}`);
      if (ctx.signal.aborted) return { output: `${args.label} aborted`, isError: true };
      return { output: `${args.label} done`, isError: false };
    },
  };
  return tool;
}

/** A tool that echoes its text argument. */
export const echoTool: Tool<z.ZodObject<{ text: z.ZodString }>> = {
  name: "echo",
  description: "echoes text",
  schema: z.object({ text: z.string() }),
  concurrent: true,
  readOnly: true,
  async execute(args) {
    return { output: `echo: ${args.text}`, isError: false };
  },
};
