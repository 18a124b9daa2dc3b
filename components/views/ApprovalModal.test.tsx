import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { ApprovalModal, approvalModalRows } from "./ApprovalModal.js";
import { wordWrap } from "../state/approval-lines.js";
import type { ApprovalAnswer, ApprovalRequest } from "../state/approval-broker.js";
import { stripAnsi, waitUntil } from "../testing/wait-for-frame.js";
import type { ApprovalTiming } from "../state/approval-keys.js";

afterEach(() => cleanup());

/** Keys answer at once (the type-ahead guard has tests of its own below). */
const AT_ONCE: ApprovalTiming = { armMs: 0, quietMs: 0, now: () => Date.now() };

const request: ApprovalRequest = { id: 7, call: { type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls" } }, agent: { id: "20261202-142301-ab12cd", label: "scout", profile: "scout", depth: 1 } };

function answers(...keys: string[]): Promise<Array<[number, ApprovalAnswer]>> {
  const got: Array<[number, ApprovalAnswer]> = [];
  const app = render(<ApprovalModal request={request} onAnswer={(id, a) => got.push([id, a])} timing={AT_ONCE} />);
  for (const key of keys) app.stdin.write(key);
  return waitUntil(() => got.length > 0, { tries: 20 }).then(() => got, () => got);
}

describe("ApprovalModal", () => {
  it("names the tool, the child that asks (profile + short id) and the cwd, then the command", () => {
    const req = { ...request, agent: { ...request.agent, cwd: "/tmp/wt-scout" } };
    const frame = stripAnsi(render(<ApprovalModal request={req} onAnswer={() => {}} />).lastFrame()!);
    expect(frame).toContain("Allow bash asked by scout ab12cd in /tmp/wt-scout");
    expect(frame).toContain("$ ls");
    expect(frame).toContain("[y]es / [n]o / [a]lways / [r]eason");
    const main = stripAnsi(render(<ApprovalModal request={{ ...request, agent: { id: "main", label: "main", depth: 0 } }} onAnswer={() => {}} />).lastFrame()!);
    expect(main).toContain("asked by main");
  });

  it("offers [s]ave with the rule when the request carries one, and s answers save; without a rule s does nothing", async () => {
    const withRule: ApprovalRequest = { ...request, rule: "bash(ls)" };
    const got: ApprovalAnswer[] = [];
    const app = render(<ApprovalModal request={withRule} onAnswer={(_id, a) => got.push(a)} width={80} timing={AT_ONCE} />);
    expect(stripAnsi(app.lastFrame()!)).toContain("[y]es / [n]o / [a]lways / [s]ave rule bash(ls) / [r]eason");
    app.stdin.write("s");
    await waitUntil(() => stripAnsi(app.lastFrame()!).includes("Save the rule bash(ls) to your settings? Enter confirms"), { tries: 20 });
    expect(got).toEqual([]);
    app.stdin.write("\r");
    await waitUntil(() => got.length > 0, { tries: 20 });
    expect(got).toEqual(["save"]);
    cleanup();
    expect(await answers("s")).toEqual([]);
  });

  it("shows a 300-character command in full at 80 columns, and sizes itself to it", () => {
    const command = Array.from({ length: 30 }, (_, i) => `step${String(i).padStart(2, "0")}ok`).join(" && ").slice(0, 299) + "Z";
    expect(command.length).toBe(300);
    const req: ApprovalRequest = { ...request, call: { ...request.call, arguments: { command } } };
    const rows = approvalModalRows(req, 80, 20);
    const frame = stripAnsi(render(<ApprovalModal request={req} onAnswer={() => {}} width={80} maxRows={rows} />).lastFrame()!);
    const lines = frame.split("\n");
    expect(lines.length).toBe(rows);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    // Wrapped at the spaces between words: the rows joined by one space are the command.
    const body = lines.slice(2, -2).map((l) => l.replace(/^│ /, "").replace(/ *│$/, "")).join(" ");
    expect(body).toBe(`$ ${command}`);
    expect(approvalModalRows(req, 80, 5)).toBe(5);
  });

  it("at 80 columns: the command breaks between words, and [r]eason stays on screen beside a long rule", () => {
    const command = "cd /work/project && npm run build -- --config tsconfig.production.json --outdir dist && node scripts/check-bundle-size.mjs dist/cli.js --max 400kB";
    const req: ApprovalRequest = { ...request, call: { ...request.call, arguments: { command } }, rule: "bash(cd /work/project && npm run build -- --config tsconfig.production.json:*)" };
    const rows = approvalModalRows(req, 80, 20);
    const lines = stripAnsi(render(<ApprovalModal request={req} onAnswer={() => {}} width={80} maxRows={rows} />).lastFrame()!).split("\n");
    expect(lines.length).toBe(rows);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    const inner = lines.slice(1, -1).map((l) => l.replace(/^│ /, "").replace(/ *│$/, ""));
    const body = inner.slice(1, inner.findIndex((l) => l.startsWith("[y]")));
    expect(body.length).toBeGreaterThan(1);
    // Every row ends with a whole word of the command and the next starts with one.
    const words = new Set(`$ ${command}`.split(" "));
    for (const row of body) for (const word of row.split(" ")) expect(words.has(word), word).toBe(true);
    expect(body.join(" ")).toBe(`$ ${command}`);
    expect(inner).toContain("[y]es / [n]o / [a]lways / [r]eason (deny and say why)");
    expect(inner.at(-1)).toMatch(/^\[s\]ave rule bash\(cd \/work\/project/);
  });

  it("scrolls a command longer than maxRows with ↓ / ↑", async () => {
    const command = Array.from({ length: 40 }, (_, i) => `echo line${i}`).join("\n");
    const req: ApprovalRequest = { ...request, call: { ...request.call, arguments: { command } } };
    const app = render(<ApprovalModal request={req} onAnswer={() => {}} width={60} maxRows={8} />);
    const first = stripAnsi(app.lastFrame()!);
    expect(first.split("\n").length).toBe(8);
    expect(first).toContain("$ echo line0");
    expect(first).not.toContain("echo line5");
    expect(first).toContain("1-4 of 40");
    for (let i = 0; i < 3; i++) app.stdin.write("\u001b[B");
    await waitUntil(() => stripAnsi(app.lastFrame()!).includes("echo line5"), { tries: 20 });
    expect(stripAnsi(app.lastFrame()!)).not.toContain("echo line0");
    app.stdin.write("\u001b[A");
    await waitUntil(() => stripAnsi(app.lastFrame()!).includes("echo line2"), { tries: 20 });
  });

  it("shows an edit as a diff with line counts and a write as the new file's head", () => {
    const edit: ApprovalRequest = { ...request, call: { type: "toolCall", id: "c2", name: "edit", arguments: { path: "src/a.ts", oldText: "const a = 1;", newText: "const a = 2;\nconst b = 3;" } } };
    const frame = stripAnsi(render(<ApprovalModal request={edit} onAnswer={() => {}} />).lastFrame()!);
    expect(frame).toContain("--- src/a.ts  +2 -1");
    expect(frame).toContain("-const a = 1;");
    expect(frame).toContain("+const a = 2;");
    expect(frame).toContain("+const b = 3;");
    const write: ApprovalRequest = { ...request, call: { type: "toolCall", id: "c3", name: "write", arguments: { path: "n.txt", content: "hello\nworld" } } };
    const w = stripAnsi(render(<ApprovalModal request={write} onAnswer={() => {}} />).lastFrame()!);
    expect(w).toContain("new n.txt  +2");
    expect(w).toContain("+hello");
  });

  it("says how many more approvals wait", () => {
    const frame = stripAnsi(render(<ApprovalModal request={request} onAnswer={() => {}} waiting={2} />).lastFrame()!);
    expect(frame).toContain("2 more waiting");
    expect(stripAnsi(render(<ApprovalModal request={request} onAnswer={() => {}} />).lastFrame()!)).not.toContain("more waiting");
  });

  it("r, a typed reason and Enter deny with that reason; Esc leaves the reason box", async () => {
    const got: Array<[number, ApprovalAnswer, string | undefined]> = [];
    const app = render(<ApprovalModal request={request} onAnswer={(id, a, r) => got.push([id, a, r])} timing={AT_ONCE} />);
    app.stdin.write("r");
    await waitUntil(() => stripAnsi(app.lastFrame()!).includes("Reason:"), { tries: 20 });
    app.stdin.write("\u001b");
    await waitUntil(() => !stripAnsi(app.lastFrame()!).includes("Reason:"), { tries: 20 });
    expect(got).toEqual([]);
    app.stdin.write("r");
    await waitUntil(() => stripAnsi(app.lastFrame()!).includes("Reason:"), { tries: 20 });
    app.stdin.write("use pnpm");
    await waitUntil(() => stripAnsi(app.lastFrame()!).includes("use pnpm"), { tries: 20 });
    app.stdin.write("\r");
    await waitUntil(() => got.length > 0, { tries: 20 });
    expect(got).toEqual([[7, "no", "use pnpm"]]);
  });

  it("a reason that arrives with its Enter in one chunk is sent whole, without the CR; what followed goes to the draft", async () => {
    const got: Array<[number, ApprovalAnswer, string | undefined]> = [];
    const draft: string[] = [];
    const app = render(<ApprovalModal request={request} onAnswer={(id, a, r) => got.push([id, a, r])} timing={AT_ONCE} onTypeAhead={(raw) => draft.push(raw)} />);
    app.stdin.write("r");
    await waitUntil(() => stripAnsi(app.lastFrame()!).includes("Reason:"), { tries: 20 });
    app.stdin.write("not like this\u007f\u007f\u007f\u007fthat, please\rx");
    await waitUntil(() => got.length > 0, { tries: 20 });
    expect(got).toEqual([[7, "no", "not like that, please"]]);
    expect(draft).toEqual(["x"]);
  });
  it("maps y / n / a + Enter (any case) and Esc to answers, and ignores other keys and Ctrl combinations", async () => {
    expect(await answers("y")).toEqual([[7, "yes"]]);
    expect(await answers("N")).toEqual([[7, "no"]]);
    expect(await answers("a")).toEqual([]); // "always" is permanent: it waits for Enter
    expect(await answers("a", "\r")).toEqual([[7, "always"]]);
    expect(await answers("a", "x", "\r")).toEqual([]); // another key goes back to the question
    expect(await answers("\u001b")).toEqual([[7, "no"]]);
    expect(await answers("x")).toEqual([]);
    expect(await answers("\u0001")).toEqual([]); // Ctrl-A is not "always"
  });
});

describe("wordWrap", () => {
  it("breaks at spaces, drops the spaces it breaks at, cuts only a word longer than a row, keeps newlines and indentation", () => {
    expect(wordWrap("alpha beta gamma", 11)).toEqual(["alpha beta", "gamma"]);
    expect(wordWrap("alpha beta  gamma", 10)).toEqual(["alpha beta", "gamma"]);
    expect(wordWrap("ab abcdefghijkl", 5)).toEqual(["ab", "abcde", "fghij", "kl"]);
    expect(wordWrap("for x in a b; do\n  echo $x\n\ndone", 40)).toEqual(["for x in a b; do", "  echo $x", "", "done"]);
  });
});
