/**
 * The OS boundary of unattended bash calls (bubblewrap): writes only inside the working directory
 * (plus temp and `sandbox.allowWrite`), git's hooks and config read-only, no network. Real bwrap,
 * real directories outside the temp dirs (a temp dir is writable by design), a real loopback server.
 */
import { untempBase } from "../helpers/untemp-dir.js";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashTool } from "../../src/tools/bash.js";
import { bashSandbox, boundaryFor, boundarySummary, confinementUnavailable, type SandboxSettings } from "../../src/tools/sandbox.js";
import { makeCtx } from "./context.js";
import { execFileSync } from "node:child_process";

const why = confinementUnavailable();

describe("which runs are confined", () => {
  it("yolo and background children lose writes outside and the network; worktree children their writes outside; asked-for commands neither", () => {
    expect(boundaryFor({ yolo: false })).toEqual({ confine: false, network: true });
    expect(boundaryFor({ yolo: true })).toEqual({ confine: true, network: false });
    expect(boundaryFor({ yolo: false, background: true })).toEqual({ confine: true, network: false });
    expect(boundaryFor({ yolo: false, worktree: true })).toEqual({ confine: true, network: true });
    expect(boundaryFor({ yolo: true }, { network: "on" })).toEqual({ confine: true, network: true });
  });

  it("the summary names the boundary, or says there is none and why", () => {
    const line = boundarySummary({ allowWrite: ["~/.npm"], network: "on" });
    if (why) expect(line).toBe(`no sandbox: ${why} — yolo runs and background or worktree children write and reach the network as you can`);
    else {
      expect(line).toContain("writes: project + tmp + ~/.npm · network: on (settings)");
      expect(boundarySummary()).toContain("writes: project + tmp · network: off");
    }
  });
});

describe.skipIf(why !== undefined)(`a confined bash call (${why ?? "bubblewrap"})`, () => {
  let root: string;
  let project: string;
  let outside: string;
  let server: Server | undefined;
  const sandbox = bashSandbox();
  const bash = (settings: SandboxSettings = {}, network = false) => createBashTool({ killGraceMs: 200, drainMs: 50, sandbox, boundary: () => ({ confine: true, network }), sandboxSettings: settings });
  beforeEach(() => {
    // Not under a temp dir: those stay writable by design.
    root = mkdtempSync(join(untempBase(), ".ink-boundary-"));
    project = join(root, "project");
    outside = join(root, "outside");
    mkdirSync(project);
    mkdirSync(outside);
  });
  afterEach(() => {
    server?.close();
    server = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  it("writes inside its directory and temp, not outside (the unconfined tool does: the control)", async () => {
    const r = await bash().execute({ command: `echo in > inside.txt; mkdir -p sub && echo t > sub/x; echo t > "$(mktemp)"; echo out > ${outside}/escaped.txt; echo "exit=$?"` }, makeCtx(project));
    expect(readFileSync(join(project, "inside.txt"), "utf8")).toBe("in\n");
    expect(readFileSync(join(project, "sub", "x"), "utf8")).toBe("t\n");
    expect(r.output).toContain("Read-only file system");
    expect(r.output).toContain("exit=1");
    expect(existsSync(join(outside, "escaped.txt"))).toBe(false);
    await createBashTool({ sandbox }).execute({ command: `echo out > ${outside}/escaped.txt` }, makeCtx(project));
    expect(existsSync(join(outside, "escaped.txt"))).toBe(true);
  });

  it("sandbox.allowWrite widens the writable paths", async () => {
    await bash({ allowWrite: [outside] }).execute({ command: `echo out > ${outside}/allowed.txt` }, makeCtx(project));
    expect(readFileSync(join(outside, "allowed.txt"), "utf8")).toBe("out\n");
  });

  it("git works in its repository, but its hooks and config stay read-only", async () => {
    execFileSync("git", ["init", "-q", project]);
    const r = await bash().execute({ command: "git -c user.name=t -c user.email=t@t commit -q --allow-empty -m one && git log --oneline | wc -l; echo evil > .git/hooks/pre-commit; git config core.fsmonitor evil; true" }, makeCtx(project));
    expect(r.output.split("\n")[0]).toBe("1");
    expect(existsSync(join(project, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(readFileSync(join(project, ".git", "config"), "utf8")).not.toContain("evil");
  });

  it("in a linked worktree, git can commit (the shared objects and refs are writable) but the checkout's files, hooks and config are not", async () => {
    execFileSync("git", ["init", "-q", project]);
    execFileSync("git", ["-C", project, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one"]);
    const wt = join(outside, "wt");
    execFileSync("git", ["-C", project, "worktree", "add", "-q", "-b", "child", wt]);
    const r = await bash().execute({ command: `echo x > new.txt && git add new.txt && git -c user.name=t -c user.email=t@t commit -qm two && git log --oneline | wc -l; touch ${project}/escaped.txt; echo evil > ${project}/.git/hooks/post-commit; true` }, makeCtx(wt));
    expect(r.output.split("\n")[0]).toBe("2");
    expect(execFileSync("git", ["-C", project, "log", "--oneline", "child"], { encoding: "utf8" }).trim().split("\n")).toHaveLength(2);
    expect(existsSync(join(project, "escaped.txt"))).toBe(false);
    expect(existsSync(join(project, ".git", "hooks", "post-commit"))).toBe(false);
  });

  it("reaches no network — not even a server on the host's loopback — unless network is on", async () => {
    server = createServer((s) => s.end("hello-from-host\n"));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`;
    const off = await bash().execute({ command }, makeCtx(project));
    expect(off.isError).toBe(true);
    expect(off.output).not.toContain("hello-from-host");
    const on = await bash({}, true).execute({ command }, makeCtx(project));
    expect(on.output).toContain("hello-from-host");
  });
});
