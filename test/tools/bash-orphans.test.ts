/**
 * Where bash runs without a namespace (INK_BASH_SANDBOX=off, or no bubblewrap/unshare), processes
 * that shed Ink's process group and its environment tag (`setsid env -i …`, `env -u INK_RUN_ID …`)
 * are still found — by the marker descriptor every process of the call inherits — and end on
 * abort, on timeout and in the exit sweep. Pids are the test's own (no sandbox).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashTool } from "../../src/tools/bash.js";
import { MARKER_FD } from "../../src/tools/call-marker.js";
import { killAllSync } from "../../src/tools/process-registry.js";
import { NO_SANDBOX } from "../../src/tools/sandbox.js";
import { makeCtx, tempDir } from "./context.js";
import { sleeping, waitUntil } from "../helpers/processes.js";

const bash = createBashTool({ killGraceMs: 200, drainMs: 50, sandbox: NO_SANDBOX });

const mark = (n: number) => `914.${n}${process.pid}`;
/** Starts two sleeps that shed both the group and the tag, plus one that keeps them. */
const shedding = (secs: string, tail: string) => `setsid env -i sleep ${secs} >/dev/null 2>&1 & env -u INK_RUN_ID -u INK_CALL_ID setsid sleep ${secs} >/dev/null 2>&1 & ${tail}`;

describe("orphans without a namespace", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => {
    killAllSync(200);
    cleanup();
  });

  it("the shell holds the marker at its descriptor number", async () => {
    const r = await bash.execute({ command: `readlink /proc/$$/fd/${MARKER_FD}` }, makeCtx(dir));
    expect(r.output).toMatch(/\.marker \(deleted\)/);
  });

  it("abort ends processes that left the group and cleared the tag", async () => {
    const secs = mark(1);
    const controller = new AbortController();
    const running = bash.execute({ command: shedding(secs, `sleep ${secs}`) }, makeCtx(dir, controller.signal));
    expect(await waitUntil(() => sleeping(secs).length === 3)).toBe(true);
    controller.abort();
    expect((await running).output).toContain("[aborted");
    expect(await waitUntil(() => sleeping(secs).length === 0)).toBe(true);
  });

  it("a timeout ends them too", async () => {
    const secs = mark(2);
    const r = await bash.execute({ command: shedding(secs, `sleep ${secs}`), timeoutMs: 1500 }, makeCtx(dir));
    expect(r.output).toContain("[timed out");
    expect(await waitUntil(() => sleeping(secs).length === 0)).toBe(true);
  });

  it("left running after the call: named in the result, and the exit sweep ends them", async () => {
    const secs = mark(3);
    const r = await bash.execute({ command: shedding(secs, "echo started; sleep 0.3") }, makeCtx(dir));
    expect(r.output).toContain("started");
    expect(await waitUntil(() => sleeping(secs).length === 2)).toBe(true);
    expect(r.output).toContain("left running in the background");
    expect(r.output).toContain(`sleep ${secs}`);
    killAllSync(300);
    expect(await waitUntil(() => sleeping(secs).length === 0)).toBe(true);
  });
});
