import { describe, expect, it } from "vitest";
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchCommand } from "../../src/host/launch-command.js";

describe("launchCommand: the command that starts Ink again from where the person is", () => {
  const root = mkdtempSync(join(tmpdir(), "ink-launch-"));
  const pkg = join(root, "ink-agent");
  mkdirSync(join(pkg, "dist"), { recursive: true });
  const cli = join(pkg, "dist", "cli.js");
  writeFileSync(cli, "#!/usr/bin/env node\n");
  chmodSync(cli, 0o755);
  const bin = join(root, "bin");
  mkdirSync(bin);
  symlinkSync(cli, join(bin, "ink"));

  it("says `npm start --` under npm start (the quick start), where `ink` is not on the PATH", () => {
    const env = { npm_lifecycle_event: "start", npm_package_name: "ink-agent", INIT_CWD: pkg, PATH: "/usr/bin" };
    expect(launchCommand({ script: cli, env, cwd: pkg })).toBe("npm start --");
  });

  it("says `ink` only when `ink` on the PATH is the script that ran", () => {
    expect(launchCommand({ script: join(bin, "ink"), env: { PATH: `/nowhere:${bin}` }, cwd: root })).toBe("ink");
    expect(launchCommand({ script: cli, env: { PATH: bin }, cwd: pkg })).toBe("ink");
  });

  it("says `node <script>` (relative below the person's folder, else absolute) when `ink` is not on the PATH", () => {
    expect(launchCommand({ script: "dist/cli.js", env: { PATH: "/usr/bin" }, cwd: pkg })).toBe("node dist/cli.js");
    expect(launchCommand({ script: cli, env: { PATH: "/usr/bin" }, cwd: join(root, "elsewhere") })).toBe(`node ${cli}`);
    // another `ink` on the PATH is not this one
    const other = join(root, "other");
    mkdirSync(other);
    writeFileSync(join(other, "ink"), "#!/bin/sh\n");
    expect(launchCommand({ script: cli, env: { PATH: other }, cwd: pkg })).toBe("node dist/cli.js");
  });

  it("quotes a script path with spaces", () => {
    expect(launchCommand({ script: "/opt/my apps/dist/cli.js", env: { PATH: "" }, cwd: "/srv" })).toBe("node '/opt/my apps/dist/cli.js'");
  });
});
