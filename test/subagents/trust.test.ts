import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256 } from "../../src/subagents/profiles/profile-files.js";
import {
  decideTrust,
  projectProfileFiles,
  readTrust,
  recordTrust,
  trustFilePath,
  trustKey,
} from "../../src/subagents/profiles/trust.js";

let cwd: string;
let inkHome: string;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "ink-trust-cwd-"));
  inkHome = join(mkdtempSync(join(tmpdir(), "ink-trust-home-")), "nested", ".ink");
});

afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(join(inkHome, "..", ".."), { recursive: true, force: true });
});

function agentFile(name: string, text: string): string {
  const dir = join(cwd, ".ink", "agents");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("trust store", () => {
  it("has no record and decides untrusted for an unknown directory (no trust.json yet)", () => {
    expect(readTrust(inkHome, cwd)).toEqual({});
    expect(decideTrust({ inkHome, cwd, flag: false })).toBe("untrusted");
    expect(decideTrust({ inkHome, cwd, flag: true })).toBe("trusted-by-flag");
  });

  it("records trust atomically (creating inkHome) and reads it back by real path", () => {
    const a = agentFile("a.md", "A");
    const record = recordTrust(inkHome, cwd, [{ path: a, hash: "h1" }, { path: ".ink/agents/b.md", hash: "h2" }], new Date(0));
    expect(record).toMatchObject({ trustedAt: "1970-01-01T00:00:00.000Z", profiles: { ".ink/agents/a.md": "h1", ".ink/agents/b.md": "h2" } });
    expect(readTrust(inkHome, cwd)).toEqual({ record });
    expect(decideTrust({ inkHome, cwd, flag: false })).toBe("recorded");
    const store = JSON.parse(readFileSync(trustFilePath(inkHome), "utf8")) as Record<string, unknown>;
    expect(Object.keys(store)).toEqual([realpathSync(cwd)]);
    expect(readdirSync(inkHome)).toEqual(["trust.json"]);
  });

  it("finds the record through a symlinked path to the same directory", () => {
    recordTrust(inkHome, cwd, [], new Date(0));
    const link = join(mkdtempSync(join(tmpdir(), "ink-trust-link-")), "project");
    symlinkSync(cwd, link);
    expect(trustKey(link)).toBe(trustKey(cwd));
    expect(decideTrust({ inkHome, cwd: link, flag: false })).toBe("recorded");
    rmSync(join(link, ".."), { recursive: true, force: true });
  });

  it("keeps other directories' records when recording one, and replaces the same directory's", () => {
    const other = mkdtempSync(join(tmpdir(), "ink-trust-other-"));
    try {
      recordTrust(inkHome, other, [{ path: ".ink/agents/x.md", hash: "x" }]);
      recordTrust(inkHome, cwd, [{ path: ".ink/agents/old.md", hash: "old" }]);
      recordTrust(inkHome, cwd, [{ path: ".ink/agents/new.md", hash: "new" }]);
      expect(readTrust(inkHome, other).record?.profiles).toEqual({ ".ink/agents/x.md": "x" });
      expect(readTrust(inkHome, cwd).record?.profiles).toEqual({ ".ink/agents/new.md": "new" });
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("treats a corrupt trust.json as no trust, with a notice naming the file, and rewrites it on record", () => {
    mkdirSync(inkHome, { recursive: true });
    writeFileSync(trustFilePath(inkHome), "{ definitely not json");
    const lookup = readTrust(inkHome, cwd);
    expect(lookup.record).toBeUndefined();
    expect(lookup.notice).toContain(trustFilePath(inkHome));
    expect(lookup.notice).toMatch(/not valid JSON/);
    expect(decideTrust({ inkHome, cwd, flag: false })).toBe("untrusted");
    recordTrust(inkHome, cwd, []);
    expect(readTrust(inkHome, cwd).record?.profiles).toEqual({});
  });

  it("treats a trust.json of the wrong shape, or a malformed entry, as no trust with a notice", () => {
    mkdirSync(inkHome, { recursive: true });
    writeFileSync(trustFilePath(inkHome), "[1, 2]");
    expect(readTrust(inkHome, cwd)).toEqual({ notice: expect.stringMatching(/not an object of trusted directories/) });
    writeFileSync(trustFilePath(inkHome), JSON.stringify({ [trustKey(cwd)]: { trustedAt: 5 } }));
    expect(readTrust(inkHome, cwd)).toEqual({ notice: expect.stringMatching(/trust entry for .* is malformed/) });
    expect(decideTrust({ inkHome, cwd, flag: false })).toBe("untrusted");
  });

  it("throws a clear error naming the file when trust cannot be written", () => {
    mkdirSync(join(inkHome, ".."), { recursive: true });
    writeFileSync(inkHome, "a file where the directory should be");
    expect(() => recordTrust(inkHome, cwd, [])).toThrow(/cannot record project trust in .*trust\.json/);
  });
});

describe("projectProfileFiles", () => {
  it("lists the project's *.md profiles with the sha256 of their bytes", () => {
    const a = agentFile("a.md", "alpha");
    agentFile("notes.txt", "not a profile");
    agentFile(".hidden.md", "editor junk");
    expect(projectProfileFiles(cwd)).toEqual([{ path: a, hash: sha256("alpha") }]);
  });

  it("is empty when the project has no agents directory", () => {
    expect(projectProfileFiles(cwd)).toEqual([]);
  });
});

describe("untrustedProjectProfiles", () => {
  it("lists every project profile before trust, none after, and an edited one again", async () => {
    const { untrustedProjectProfiles, recordTrust, projectProfileFiles } = await import("../../src/subagents/profiles/trust.js");
    const { mkdtempSync, mkdirSync, writeFileSync, appendFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const home = mkdtempSync(join(tmpdir(), "ink-trust-home-"));
    const project = mkdtempSync(join(tmpdir(), "ink-trust-proj-"));
    expect(untrustedProjectProfiles(home, project)).toEqual([]);
    mkdirSync(join(project, ".ink", "agents"), { recursive: true });
    writeFileSync(join(project, ".ink", "agents", "a.md"), "---\nname: a\ndescription: a\n---\n");
    writeFileSync(join(project, ".ink", "agents", "b.md"), "---\nname: b\ndescription: b\n---\n");
    expect(untrustedProjectProfiles(home, project).map((f) => f.path.split("/").pop())).toEqual(["a.md", "b.md"]);
    recordTrust(home, project, projectProfileFiles(project));
    expect(untrustedProjectProfiles(home, project)).toEqual([]);
    appendFileSync(join(project, ".ink", "agents", "b.md"), "edited\n");
    expect(untrustedProjectProfiles(home, project).map((f) => f.path.split("/").pop())).toEqual(["b.md"]);
  });
});
