import { describe, expect, it } from "vitest";
import { findDefinitions, parseReadOutput } from "../../src/providers/demo-definitions.js";
import { pathsIn } from "../../src/providers/demo-delegator.js";
import { findPatternFor, grepPatternFor, keywordVariants, rootOf } from "../../src/providers/demo-keywords.js";
import { isTestPath, parseFindOutput, parseGrepCounts, parseGrepOutput, pickFilesToRead, rankFiles } from "../../src/providers/demo-search.js";
import { chunkText } from "../../src/providers/demo-stream.js";

describe("demo keyword variants", () => {
  it("matches a word's variants through its root: route/router/routing, delete/deletion, plural forms", () => {
    for (const w of ["route", "routes", "router", "routing"]) expect(rootOf(w)).toBe("rout");
    for (const w of ["delete", "deleted", "deletion", "deleting"]) expect(rootOf(w)).toBe("delet");
    for (const w of ["validate", "validated", "validation"]) expect(rootOf(w)).toBe("valid");
    expect(["logging", "stopped", "sessions", "status", "class", "string", "queries"].map(rootOf)).toEqual(["log", "stop", "session", "status", "class", "string", "query"]);
    expect(keywordVariants("routes")).toEqual(["rout"]);
    expect(keywordVariants("query")).toEqual(["query", "querie"]);
    expect(grepPatternFor("routing")).toBe("rout");
    expect(grepPatternFor("queries")).toBe("quer(y|ie)");
    expect(grepPatternFor("cookies")).toBe("cook(y|ie)");
    expect(grepPatternFor("event-stream.ts")).toBe("event-stream\\.ts");
    // Globs match case: a capitalised root finds KafkaConsumer.java, LoginController.java.
    expect(findPatternFor("sessions")).toBe("**/*{session,Session}*");
    expect(findPatternFor("consumer")).toBe("**/*{consum,Consum}*");
  });
});

describe("demo search parsing and ranking", () => {
  it("knows tests by folder and by name in any language's convention", () => {
    for (const p of ["test/app.router.js", "clients/src/test/java/a/KafkaConsumerTest.java", "src/a.test.ts", "pkg/a_test.go", "tests/test_login.py", "UserSpec.scala"]) expect(isTestPath(p)).toBe(true);
    for (const p of ["lib/router/index.js", "src/Testing.java", "src/contest.ts", "lib/latest.js"]) expect(isTestPath(p)).toBe(false);
  });

  it("a file defining things named after the keywords beats one that mentions them more often; a router/ folder is code, not config", () => {
    const hits = [
      { path: "lib/router/index.js", line: 40, text: "proto.route = function route(path) {" },
      { path: "lib/router/index.js", line: 5, text: "var proto = module.exports = function(options) {" },
      ...Array.from({ length: 8 }, (_, i) => ({ path: "lib/application.js", line: i + 1, text: `var router = this._router; // routing ${i}` })),
      { path: "examples/route-separation/index.js", line: 3, text: "function route(app) {" },
    ];
    const ranked = rankFiles(hits, [], ["routing"], "Find where `routing` is implemented");
    // An example that defines `route` still sinks below the library's own definition (examples are halved).
    expect(ranked.map((f) => f.path)).toEqual(["lib/router/index.js", "examples/route-separation/index.js", "lib/application.js"]);
  });

  it("parses grep lines and skips notes", () => {
    const out = "./src/a.ts:3: export function a() {}\n[12 more matches truncated]\nnot a match line\nsrc/b c.ts:10:x";
    expect(parseGrepOutput(out)).toEqual([
      { path: "src/a.ts", line: 3, text: "export function a() {}" },
      { path: "src/b c.ts", line: 10, text: "x" },
    ]);
  });

  it("parses find paths and skips notes", () => {
    expect(parseFindOutput("src/auth/login.ts\n(no more files)\n\n./test/login.test.ts\nNo files found for the pattern")).toEqual([
      "src/auth/login.ts",
      "test/login.test.ts",
    ]);
  });

  it("ranks a keyword in the path above content matches and sinks lockfiles and dist", () => {
    const hits = parseGrepOutput(
      ["src/server.ts:40:  if (login(user)) {", "src/server.ts:41:  // login again", "dist/bundle.min.js:1:login", "package-lock.json:9:login"].join("\n"),
    );
    const ranked = rankFiles(hits, ["src/auth/login.ts"], ["login"], "where is login handled");
    expect(ranked.map((f) => f.path)).toEqual(["src/auth/login.ts", "src/server.ts", "dist/bundle.min.js", "package-lock.json"]);
    expect(ranked[1]!.lines).toEqual([40, 41]);
    expect(pickFilesToRead(ranked).map((f) => f.path)).toEqual(["src/auth/login.ts"]);
  });

  it("a file about the keyword (many uses of it, every keyword) beats one merely named after it", () => {
    const counts = [
      ...parseGrepCounts("src/agent-session.ts: 60\ncomponents/SessionPicker.tsx: 5\n\n[65 matches in 2 file(s)]", "sessions"),
      ...parseGrepCounts("src/agent-session.ts: 20\ncomponents/SessionPicker.tsx: 2", "resumed"),
    ];
    expect(counts[0]).toEqual({ path: "src/agent-session.ts", count: 60, keyword: "sessions" });
    const hits = parseGrepOutput("components/views/SessionPicker.tsx:18: export function SessionPicker() {\nsrc/agent-session.ts:80: export class AgentSession {");
    const found = ["components/views/SessionPicker.tsx", "src/agent-session.ts"];
    expect(rankFiles(hits, found, ["sessions", "resumed"], "where are sessions resumed", counts)[0]!.path).toBe("src/agent-session.ts");
  });

  it("prefers source over tests unless tests are asked for", () => {
    const hits = parseGrepOutput("src/login.ts:1:login\ntest/login.test.ts:1:login");
    expect(rankFiles(hits, [], ["login"], "where is login")[0]!.path).toBe("src/login.ts");
    expect(rankFiles(hits, [], ["login"], "which tests cover login")[0]!.path).toBe("test/login.test.ts");
  });
});

describe("demo read parsing", () => {
  it("understands several line-number styles", () => {
    expect(parseReadOutput("    12\tfoo\n    13\tbar")).toEqual([
      { line: 12, text: "foo" },
      { line: 13, text: "bar" },
    ]);
    expect(parseReadOutput("7: a\n8| b\n9→c")).toEqual([
      { line: 7, text: "a" },
      { line: 8, text: "b" },
      { line: 9, text: "c" },
    ]);
    expect(parseReadOutput("plain\ntext\n[2 more lines]", 30)).toEqual([
      { line: 30, text: "plain" },
      { line: 31, text: "text" },
    ]);
  });

  it("finds definitions in several languages", () => {
    const lines = parseReadOutput(
      [
        "1\texport async function handleLogin() {",
        "2\texport class SessionStore {",
        "3\t  save(id: string): void {",
        "4\t  if (x) {",
        "5\texport const MAX = 3;",
        "6\tconst check = async (a: number) => a;",
        "7\tdef parse_args(argv):",
        "8\tfunc (s *Server) Serve() error {",
        "9\texport interface Options {",
        '10\tdescribe("grep tool", () => {',
      ].join("\n"),
    );
    expect(findDefinitions(lines).map((d) => `${d.kind}:${d.name}@${d.line}`)).toEqual([
      "function:handleLogin@1",
      "class:SessionStore@2",
      "method:save@3",
      "const:MAX@5",
      "function:check@6",
      "function:parse_args@7",
      "function:Serve@8",
      "interface:Options@9",
      "test suite:grep tool@10",
    ]);
  });
});

describe("demo report helpers", () => {
  it("pulls file paths out of a child's report, skipping quoted code and session files", () => {
    const quoted = "1. `src/auth/login.ts` — line 3: `import { check } from './check.js';`\n2. `test/login.test.ts:5`";
    expect(pathsIn(quoted)).toEqual(["src/auth/login.ts", "test/login.test.ts"]);
    const bare = "See src/auth/login.ts (line 3) and test/login.test.ts:5.\nHistory: /home/u/.ink/sessions/x.jsonl, e.g. nothing";
    expect(pathsIn(bare)).toEqual(["src/auth/login.ts", "test/login.test.ts"]);
  });

  it("chunks text into a few words at a time without losing characters", () => {
    const text = "  Plan: search the files,\n\nthen read   them.";
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join("")).toBe(text);
  });
});

describe("demo: a message sent to a running child", () => {
  it("is read as the words sent (not the header Ink puts before them), followed by the task it goes on with", async () => {
    const { readContext } = await import("../../src/providers/demo-conversation.js");
    const { steerContent, steerBody } = await import("../../src/protocol/steer-message.js");
    const content = steerContent("also check the tests", "user");
    expect(content).toMatch(/^\[Message from the person watching you work/);
    expect(steerBody(content)).toBe("also check the tests");
    expect(steerBody("plain prompt")).toBe("plain prompt");
    const context = readContext({ system: "# Subagent mode", tools: [], model: "demo", maxTokens: 1, messages: [{ role: "user", content: "where is login?" }, { role: "assistant", content: [{ type: "text", text: "looking" }], stopReason: "end_turn", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }, { role: "user", content }] });
    // The message adds to the child's task: its words first, then the task it goes on with.
    expect(context.prompt).toBe("also check the tests\nwhere is login?");
  });
});
