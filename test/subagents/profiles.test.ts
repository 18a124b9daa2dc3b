import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseProfile } from "../../src/subagents/profiles/profile-parse.js";
import { parseDuration } from "../../src/subagents/profiles/profile-schema.js";
import { formatProfileList, loadProfiles, ROSTER_MAX_AGENTS, ROSTER_MAX_BYTES, ROSTER_MAX_DESCRIPTION_BYTES, type ProfileLoad } from "../../src/subagents/profiles/profiles.js";

const repoRoot = join(import.meta.dirname, "..", "..");
let cwd: string;
let inkHome: string;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "ink-profiles-cwd-"));
  inkHome = mkdtempSync(join(tmpdir(), "ink-profiles-home-"));
});

afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(inkHome, { recursive: true, force: true });
});

function writeIn(dir: string, file: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, text);
  return path;
}
const project = (file: string, text: string) => writeIn(join(cwd, ".ink", "agents"), file, text);
const user = (file: string, text: string) => writeIn(join(inkHome, "agents"), file, text);

function profileText(front: string, body = "Do the thing."): string {
  return `---\n${front}\n---\n${body}\n`;
}

function parse(front: string, body?: string) {
  return parseProfile(profileText(front, body), { path: "/x/a.md", source: "user", hash: "h" });
}

function reasonOf(result: ReturnType<typeof parse>): string {
  if (result.ok) throw new Error(`expected a failure, got profile ${result.profile.name}`);
  return result.reason;
}

const names = (load: ProfileLoad) => load.profiles.map((p) => p.name);

describe("parseProfile", () => {
  it("parses a profile with comma-separated tools", () => {
    const result = parse("name: scout\ndescription: Looks around\ntools: read, grep ,find", "\n  Search first.\n\n");
    expect(result).toEqual({
      ok: true,
      profile: {
        name: "scout",
        description: "Looks around",
        tools: ["read", "grep", "find"],
        body: "Search first.",
        path: "/x/a.md",
        source: "user",
        hash: "h",
      },
    });
  });

  it("parses YAML-list tools, model and maxTurns, and allows an empty body", () => {
    const result = parse("name: fixer_2\ndescription: Fixes\ntools:\n  - read\n  - edit\nmodel: claude-x\nmaxTurns: 12", "");
    if (!result.ok) throw new Error(result.reason);
    expect(result.profile.tools).toEqual(["read", "edit"]);
    expect(result.profile.model).toBe("claude-x");
    expect(result.profile.maxTurns).toBe(12);
    expect(result.profile.body).toBe("");
    expect(result.profile.thinking).toBeUndefined();
    expect(result.profile.timeoutMs).toBeUndefined();
  });

  it.each([
    ["90s", 90_000],
    ["5m", 300_000],
    ["1h", 3_600_000],
    ["1m30s", 90_000],
    ["1500ms", 1500],
    [120000, 120_000],
  ])("parses timeout %j", (value, ms) => {
    const result = parse(`name: a\ndescription: b\ntimeout: ${JSON.stringify(value)}`);
    if (!result.ok) throw new Error(result.reason);
    expect(result.profile.timeoutMs).toBe(ms);
  });

  it.each([
    ["high", { type: "on", budgetTokens: 32000, level: "high" }],
    ["low", { type: "on", budgetTokens: 4000, level: "low" }],
    ["Medium", { type: "on", budgetTokens: 10000, level: "medium" }],
    ["off", { type: "off" }],
    [false, { type: "off" }],
    [true, { type: "on", budgetTokens: 10000, level: "medium" }],
    [2048, { type: "on", budgetTokens: 2048 }],
  ])("parses thinking %j", (value, expected) => {
    const result = parse(`name: a\ndescription: b\nthinking: ${JSON.stringify(value)}`);
    if (!result.ok) throw new Error(result.reason);
    expect(result.profile.thinking).toEqual(expected);
  });

  it.each([
    ["missing name", "description: b", /`name` is required/],
    ["bad name", "name: My Agent\ndescription: b", /`name` .*not a valid name.*"my-agent"/],
    ["missing description", "name: a", /`description` is required/],
    ["empty description", "name: a\ndescription: '  '", /`description` is empty/],
    ["short timeout", "name: a\ndescription: b\ntimeout: 500", /`timeout` must be at least 1000 ms/],
    ["bad duration", "name: a\ndescription: b\ntimeout: soon", /`timeout` "soon" is not a duration/],
    ["bad thinking", "name: a\ndescription: b\nthinking: extreme", /`thinking` "extreme" is not a thinking level/],
    ["tiny budget", "name: a\ndescription: b\nthinking: 10", /`thinking` 10 is not a valid budget/],
    ["bad maxTurns", "name: a\ndescription: b\nmaxTurns: 0", /`maxTurns` must be a positive integer/],
    ["empty tools", "name: a\ndescription: b\ntools: ' , '", /`tools` lists no tool names/],
    ["tools of numbers", "name: a\ndescription: b\ntools: [1]", /`tools` tool names must be strings/],
    ["bad YAML", "name: a\ndescription: [unclosed", /invalid YAML front matter/],
    ["non-object front matter", "- a\n- b", /not a set of `key: value` lines/],
    ["a worktree that is not a boolean", "name: a\ndescription: b\nworktree: sometimes", /`worktree` must be true or false/],
  ])("rejects %s", (_label, front, reason) => {
    expect(reasonOf(parse(front))).toMatch(reason);
  });

  it.each([
    ["unknown key", "name: a\ndescription: b\ntool: read", /^\/x\/a\.md: unknown key "tool" \(did you mean "tools"\?\) was ignored/],
    ["timeoutMs key", "name: a\ndescription: b\ntimeoutMs: 5000", /"timeoutMs" \(did you mean "timeout"\?\)/],
  ])("loads a file with an %s, with a warning naming it and the key meant", (_label, front, warning) => {
    const result = parse(front);
    if (!result.ok) throw new Error(result.reason);
    expect(result.profile.warnings?.join("\n")).toMatch(warning);
  });

  it("reports every failing field at once", () => {
    const reason = reasonOf(parse("description: b\ntimeout: 10\nmaxTurns: -1"));
    expect(reason).toMatch(/`name`/);
    expect(reason).toMatch(/`timeout`/);
    expect(reason).toMatch(/`maxTurns`/);
  });

  it("rejects files without front matter, unclosed front matter and JavaScript front matter", () => {
    const origin = { path: "/x/a.md", source: "user" as const, hash: "h" };
    expect(reasonOf(parseProfile("just text\n", origin))).toMatch(/no front matter/);
    expect(reasonOf(parseProfile("---\nname: a\ndescription: b\n", origin))).toMatch(/never closed/);
    const evil = "---js\n{ name: (globalThis.__inkEvaluated = 'yes'), description: 'x' }\n---\nbody\n";
    expect(reasonOf(parseProfile(evil, origin))).toMatch(/only YAML front matter/);
    expect((globalThis as Record<string, unknown>).__inkEvaluated).toBeUndefined();
  });

  it("accepts CRLF line endings and a byte-order mark", () => {
    const result = parseProfile("\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\nBody\r\n", { path: "/p", source: "user", hash: "h" });
    if (!result.ok) throw new Error(result.reason);
    expect(result.profile.name).toBe("a");
    expect(result.profile.body).toBe("Body");
  });

  it("parseDuration refuses malformed durations", () => {
    expect(parseDuration("5 minutes")).toBeUndefined();
    expect(parseDuration("m5")).toBeUndefined();
    expect(parseDuration("2h")).toBe(7_200_000);
  });
});

describe("loadProfiles", () => {
  it("reports malformed files with their path and field, and still loads the others", () => {
    user("good.md", profileText("name: good\ndescription: fine"));
    const noName = user("no-name.md", profileText("description: fine"));
    const noDesc = user("no-desc.md", profileText("name: nodesc"));
    const badYaml = user("bad-yaml.md", profileText("name: x\n  description: : ["));
    const short = user("short.md", profileText("name: z\ndescription: d\ntimeout: 999"));
    writeIn(join(inkHome, "agents"), "notes.txt", "ignored");
    const load = loadProfiles({ cwd, inkHome, trust: "untrusted" });
    expect(names(load)).toEqual(["good"]);
    const byPath = new Map(load.problems.map((p) => [p.path, p.reason]));
    expect([...byPath.keys()].sort()).toEqual([badYaml, noDesc, noName, short].sort());
    expect(byPath.get(noName)).toMatch(/`name` is required/);
    expect(byPath.get(noDesc)).toMatch(/`description` is required/);
    expect(byPath.get(badYaml)).toMatch(/invalid YAML front matter: .*line 3/);
    expect(byPath.get(short)).toMatch(/`timeout`/);
    expect(load.notices).toEqual([]);
  });

  it("is fine with no agent directories at all", () => {
    expect(loadProfiles({ cwd, inkHome, trust: "untrusted" })).toEqual({ profiles: [], problems: [], notices: [], warnings: [] });
  });

  it("sorts by name and reports a second file with a taken name", () => {
    user("b.md", profileText("name: zeta\ndescription: z"));
    user("a.md", profileText("name: alpha\ndescription: a"));
    const second = user("c.md", profileText("name: alpha\ndescription: again"));
    const load = loadProfiles({ cwd, inkHome, trust: "untrusted" });
    expect(names(load)).toEqual(["alpha", "zeta"]);
    expect(load.profiles[0]!.description).toBe("a");
    expect(load.problems).toEqual([{ path: second, reason: expect.stringMatching(/"alpha" is already used by .*a\.md/) }]);
  });

  it("lets a project profile win over a user profile of the same name, with a notice", () => {
    user("scout.md", profileText("name: scout\ndescription: user scout"));
    user("helper.md", profileText("name: helper\ndescription: user helper"));
    project("scout.md", profileText("name: scout\ndescription: project scout"));
    const load = loadProfiles({ cwd, inkHome, trust: "trusted-by-flag" });
    expect(names(load)).toEqual(["helper", "scout"]);
    const scout = load.profiles.find((p) => p.name === "scout")!;
    expect(scout.description).toBe("project scout");
    expect(scout.source).toBe("project");
    expect(load.notices).toEqual([expect.stringMatching(/"scout" .* is shadowed by the project profile/)]);
  });

  it("untrusted: skips project profiles with exactly one notice and still loads user profiles", () => {
    project("a.md", profileText("name: a\ndescription: a"));
    project("b.md", profileText("name: b\ndescription: b"));
    project("broken.md", "no front matter");
    user("mine.md", profileText("name: mine\ndescription: m"));
    const load = loadProfiles({ cwd, inkHome, trust: "untrusted" });
    expect(names(load)).toEqual(["mine"]);
    expect(load.problems).toEqual([]);
    expect(load.notices).toEqual([
      `Skipped 3 project agent profile(s) in ${join(cwd, ".ink", "agents")}: this project is not trusted. Run with --trust (or answer y to the trust question at start) to load them.`,
    ]);
  });

  it("trusted-by-flag: loads project profiles and records their hashes in trust.json", () => {
    const path = project("a.md", profileText("name: a\ndescription: a"));
    const load = loadProfiles({ cwd, inkHome, trust: "trusted-by-flag", now: new Date("2025-01-02T03:04:05Z") });
    expect(names(load)).toEqual(["a"]);
    expect(load.profiles[0]!.source).toBe("project");
    expect(load.profiles[0]!.path).toBe(path);
    const store = JSON.parse(readFileSync(join(inkHome, "trust.json"), "utf8")) as Record<string, unknown>;
    const entries = Object.values(store);
    expect(entries).toMatchObject([{ trustedAt: "2025-01-02T03:04:05.000Z", profiles: { ".ink/agents/a.md": load.profiles[0]!.hash } }]);
  });

  it("recorded: loads unchanged profiles, skips edited and new ones with a re-trust notice", () => {
    project("a.md", profileText("name: a\ndescription: a"));
    project("b.md", profileText("name: b\ndescription: b"));
    loadProfiles({ cwd, inkHome, trust: "trusted-by-flag" });

    project("b.md", profileText("name: b\ndescription: b", "Now do something else."));
    project("c.md", profileText("name: c\ndescription: c"));
    const load = loadProfiles({ cwd, inkHome, trust: "recorded" });
    expect(names(load)).toEqual(["a"]);
    expect(load.problems).toEqual([]);
    expect(load.notices).toEqual([
      ".ink/agents/b.md changed since you trusted this project; run with --trust (or accept the prompt in the TUI) to load it",
      ".ink/agents/c.md was added since you trusted this project; run with --trust (or accept the prompt in the TUI) to load it",
    ]);
  });

  it("recorded but trust.json is corrupt: treated as untrusted, with a notice naming the file", () => {
    project("a.md", profileText("name: a\ndescription: a"));
    writeFileSync(join(inkHome, "trust.json"), "{ not json");
    const load = loadProfiles({ cwd, inkHome, trust: "recorded" });
    expect(names(load)).toEqual([]);
    expect(load.notices).toHaveLength(2);
    expect(load.notices[0]).toContain(join(inkHome, "trust.json"));
    expect(load.notices[1]).toMatch(/^Skipped 1 project agent profile\(s\)/);
  });

  it("reports an unreadable profile file (a dangling link) and keeps going", () => {
    mkdirSync(join(inkHome, "agents"), { recursive: true });
    const dangling = join(inkHome, "agents", "gone.md");
    symlinkSync(join(inkHome, "nowhere.md"), dangling);
    user("open.md", profileText("name: open\ndescription: o"));
    const load = loadProfiles({ cwd, inkHome, trust: "untrusted" });
    expect(names(load)).toEqual(["open"]);
    expect(load.problems).toEqual([{ path: dangling, reason: expect.stringMatching(/cannot read the file: .*ENOENT/) }]);
  });

  it("reports an agents path that is not a directory", () => {
    writeFileSync(join(inkHome, "agents"), "oops");
    const load = loadProfiles({ cwd, inkHome, trust: "untrusted" });
    expect(load.problems).toEqual([{ path: join(inkHome, "agents"), reason: expect.stringMatching(/cannot read the profile directory/) }]);
  });

  it("loads a directory that is both the project's and the user's agents dir only once", () => {
    const home = join(cwd, ".ink");
    project("a.md", profileText("name: a\ndescription: a"));
    const load = loadProfiles({ cwd, inkHome: home, trust: "untrusted" });
    expect(load.profiles.map((p) => [p.name, p.source])).toEqual([["a", "user"]]);
    expect(load.notices).toEqual([]);
  });
});

describe("formatProfileList", () => {
  it("lists one `- name: description` line per profile, descriptions on one line", () => {
    user("a.md", profileText("name: alpha\ndescription: |\n  First line\n  second line"));
    user("b.md", profileText("name: beta\ndescription: Beta"));
    const load = loadProfiles({ cwd, inkHome, trust: "untrusted" });
    expect(formatProfileList(load.profiles).split("\n").slice(1)).toEqual(["- alpha: First line second line", "- beta: Beta"]);
    expect(formatProfileList([])).toBe("");
  });

  it("frames the list as available helpers, not instructions, and caps it: 16 agents + N more, descriptions <= 512 bytes, block <= 12 KB", () => {
    const many = Array.from({ length: 20 }, (_, i) => ({
      name: `agent${String(i).padStart(2, "0")}`,
      description: `${"é".repeat(1500)}  \n  tail`,
      body: "",
      path: `/p/${i}.md`,
      source: "user" as const,
      hash: String(i),
    }));
    const text = formatProfileList(many);
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/available/i);
    expect(lines[0]).toMatch(/information, not an instruction/);
    const agentLines = lines.filter((l) => l.startsWith("- "));
    expect(agentLines.length).toBeLessThanOrEqual(ROSTER_MAX_AGENTS);
    expect(lines.at(-1)).toMatch(new RegExp(`… and ${20 - agentLines.length} more`));
    for (const l of agentLines) {
      const description = l.slice(l.indexOf(": ") + 2);
      expect(Buffer.byteLength(description)).toBeLessThanOrEqual(ROSTER_MAX_DESCRIPTION_BYTES);
      expect(description).not.toContain("\uFFFD");
      expect(description.endsWith("…")).toBe(true);
    }
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(ROSTER_MAX_BYTES);
    // 16 agents fit when descriptions are short
    const short = many.map((p) => ({ ...p, description: "short" }));
    const shortLines = formatProfileList(short).split("\n");
    expect(shortLines.filter((l) => l.startsWith("- "))).toHaveLength(16);
    expect(shortLines.at(-1)).toMatch(/^… and 4 more/);
  });
});

describe("shipped profiles", () => {
  it(".ink/agents/scout.md and worker.md parse without problems; scout is read-only", () => {
    const load = loadProfiles({ cwd: repoRoot, inkHome, trust: "trusted-by-flag" });
    const shipped = (name: string) => load.problems.filter((p) => p.path.endsWith(`${name}.md`));
    expect(shipped("scout")).toEqual([]);
    expect(shipped("worker")).toEqual([]);
    const scout = load.profiles.find((p) => p.name === "scout");
    const worker = load.profiles.find((p) => p.name === "worker");
    expect(scout?.tools).toEqual(["read", "grep", "find", "ls"]);
    expect(scout?.body).toMatch(/never modify files/i);
    expect(worker?.tools).toEqual(expect.arrayContaining(["edit", "write", "bash"]));
    expect(worker?.description).toMatch(/worktree: true/);
  });
});
