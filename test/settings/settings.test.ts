import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSettings, SettingsError } from "../../src/settings/settings.js";

function dirs() {
  const root = mkdtempSync(join(tmpdir(), "ink-settings-"));
  const inkHome = join(root, "home");
  const project = join(root, "project");
  mkdirSync(inkHome, { recursive: true });
  mkdirSync(join(project, ".ink"), { recursive: true });
  return { inkHome, project };
}

describe("settings", () => {
  it("merges user and trusted project values, naming each value's file; rules are kept from every scope", () => {
    const { inkHome, project } = dirs();
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ model: "claude-haiku-4-5", maxChildren: 2, permissions: { allow: ["bash(git status*)"], deny: ["bash(rm *)"] } }));
    writeFileSync(join(project, ".ink", "settings.json"), JSON.stringify({ maxChildren: 6, permissions: { ask: ["edit(src/**)"] } }));
    const loaded = loadSettings({ inkHome, projectDir: project, trusted: true });
    expect(loaded.effective.model).toBe("claude-haiku-4-5");
    expect(loaded.effective.maxChildren).toBe(6);
    expect(loaded.sources.maxChildren).toBe(join(project, ".ink", "settings.json"));
    expect(loaded.sources.model).toBe(join(inkHome, "settings.json"));
    expect(loaded.effective.permissions).toMatchObject({ allow: ["bash(git status*)"], ask: ["edit(src/**)"], deny: ["bash(rm *)"] });
  });

  it("never opens an untrusted project's file", () => {
    const { inkHome, project } = dirs();
    writeFileSync(join(project, ".ink", "settings.json"), "{ this is not json");
    const loaded = loadSettings({ inkHome, projectDir: project, trusted: false });
    expect(loaded.scopes).toEqual([]);
    expect(() => loadSettings({ inkHome, projectDir: project, trusted: true })).toThrow(SettingsError);
  });

  it("a JSON mistake is named by line and column (not a character offset) with what was expected there", () => {
    const { inkHome, project } = dirs();
    const path = join(inkHome, "settings.json");
    writeFileSync(path, '{\n  "model": "claude-haiku-4-5",\n  "maxChildren": 4,\n}\n');
    expect(() => loadSettings({ inkHome, projectDir: project, trusted: true })).toThrow(`${path}: not valid JSON (line 4, column 1: expected another property after ',' (JSON allows no trailing comma), found "}"); fix the file or remove it`);
    writeFileSync(path, '{\n\n  "model": tru\n}');
    expect(() => loadSettings({ inkHome, projectDir: project, trusted: true })).toThrow(/line 3, column 12: expected a value/);
    writeFileSync(path, '{ "model": "x"');
    expect(() => loadSettings({ inkHome, projectDir: project, trusted: true })).toThrow(/line 1, column 15: expected ',' or '}' after the property value, found the end of the file/);
    writeFileSync(path, '{ "permissions": { "allow": ["read" "bash"] } }');
    expect(() => loadSettings({ inkHome, projectDir: project, trusted: true })).toThrow(/line 1, column 37: expected ',' or '\]' after the value/);
  });

  it("warns about unknown keys with a suggestion, and names the key and file of a bad value", () => {
    const { inkHome, project } = dirs();
    const path = join(inkHome, "settings.json");
    writeFileSync(path, JSON.stringify({ modle: "x" }));
    const loaded = loadSettings({ inkHome, projectDir: project, trusted: false });
    expect(loaded.warnings[0]).toContain(`${path}: unknown setting "modle" ignored (did you mean "model"?)`);
    writeFileSync(path, JSON.stringify({ maxChildren: 0 }));
    expect(() => loadSettings({ inkHome, projectDir: project, trusted: false })).toThrow(/settings\.json: invalid settings — "maxChildren"/);
  });

  it("each bad value is named with what to write instead; every duration and thinking form the profiles accept is accepted", () => {
    const { inkHome, project } = dirs();
    const path = join(inkHome, "settings.json");
    const message = (value: unknown) => {
      writeFileSync(path, JSON.stringify(value));
      try {
        loadSettings({ inkHome, projectDir: project, trusted: false });
        return "accepted";
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(message({ childTimeout: "0s" })).toContain(`${path}: invalid settings — "childTimeout": must be at least 1000 ms, got "0s" (0 ms)`);
    expect(message({ childTimeout: "5 minutes" })).toContain('"childTimeout": "5 minutes" is not a duration; write milliseconds (e.g. 90000) or a duration such as "90s", "5m" or "1h"');
    expect(message({ thinking: "extreme" })).toContain('"thinking": "extreme" is not a thinking level; use off, minimal (1024), low (4000), medium (10000), high (32000), max (59904)');
    expect(message({ maxChildren: 2.5 })).toContain('"maxChildren": must be a whole number from 1 to 64');
    expect(message({ model: " " })).toContain('"model": must be a model id such as "claude-sonnet-4-5"');
    expect(message({ permissions: { allow: "bash" } })).toContain('"permissions.allow": must be a list of rules such as ["bash(git status*)"');
    expect(message({ inline: "yes" })).toContain('"inline": must be true or false');
    expect(message({ mcpServers: [] })).toContain('"mcpServers": must be an object of servers by name');
    expect(message({ notify: "loud" })).toContain('"notify": must be "off", "bell" or "desktop", e.g. "notify": "desktop"');
    for (const ok of [{ notify: "off" }, { notify: "bell" }, { notify: "desktop" }, { childTimeout: "1m30s" }, { childTimeout: 90_000 }, { thinking: true }, { thinking: 2048 }, { thinking: "high" }]) expect(message(ok)).toBe("accepted");
  });

  it("a project may not pass secrets to tools", () => {
    const { inkHome, project } = dirs();
    writeFileSync(join(project, ".ink", "settings.json"), JSON.stringify({ envPassthrough: ["ANTHROPIC_API_KEY"] }));
    const loaded = loadSettings({ inkHome, projectDir: project, trusted: true });
    expect(loaded.effective.envPassthrough).toBeUndefined();
    expect(loaded.warnings.join("\n")).toContain('"envPassthrough" is ignored');
  });

  it("sandbox: the user's widens what unattended commands write and reach; a bad value names the key and the fix; a project's is ignored", () => {
    const { inkHome, project } = dirs();
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ sandbox: { allowWrite: ["~/.npm", "/srv/cache"], network: "on" } }));
    expect(loadSettings({ inkHome, projectDir: project, trusted: false }).effective.sandbox).toEqual({ allowWrite: ["~/.npm", "/srv/cache"], network: "on" });
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ sandbox: { network: "yes" } }));
    expect(() => loadSettings({ inkHome, projectDir: project, trusted: false })).toThrow(/settings\.json: invalid settings — "sandbox\.network": must be "on" or "off"/);
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ sandbox: { allowWrite: ["build"] } }));
    expect(() => loadSettings({ inkHome, projectDir: project, trusted: false })).toThrow(/"sandbox\.allowWrite\.0": each path must be absolute or start with "~\/"/);
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ sandbox: { allowWrites: ["/x"] } }));
    expect(() => loadSettings({ inkHome, projectDir: project, trusted: false })).toThrow(/"sandbox": /);
    writeFileSync(join(inkHome, "settings.json"), "{}");
    writeFileSync(join(project, ".ink", "settings.json"), JSON.stringify({ sandbox: { allowWrite: ["/"], network: "on" } }));
    const loaded = loadSettings({ inkHome, projectDir: project, trusted: true });
    expect(loaded.effective.sandbox).toBeUndefined();
    expect(loaded.warnings.join("\n")).toContain('"sandbox" is ignored in a project\'s settings');
  });
});
