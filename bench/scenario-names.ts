/**
 * The names of the render scenarios other bench files find figures by (bench/targets.ts, and
 * bench/claude-code.ts, which runs Claude Code on the same scenarios under the same names): one
 * place, so a renamed scenario cannot leave a target looking for a figure that no longer exists.
 */

/** The paced answer: 100 tokens/s for 20 s. */
export const PACED = "paced answer (100 tokens/s for 20 s)";
/** The paced answer below one finished 20,000-token answer (a resumed session). */
export const BELOW = `${PACED} below one 20,000-token answer`;
/** 1 main + 8 children streaming 50 tokens/s each for 51 s. */
export const CHILDREN_51 = "8 children × 50 tokens/s for 51 s";

/**
 * Whether the scenario `name` runs under INK_BENCH_SCENARIO: every scenario when unset, else those matching one of its
 * "|"-separated parts — a part is contained in the name, or, after a "=", is the whole name (the paced answer alone,
 * not the ones below it too).
 */
export function scenarioWanted(name: string, filter = process.env.INK_BENCH_SCENARIO): boolean {
  if (!filter) return true;
  return filter.split("|").some((part) => (part.startsWith("=") ? name === part.slice(1) : name.includes(part)));
}
