/**
 * A shadow git store for checkpoints (issue #40): its own GIT_DIR under INK_HOME and
 * GIT_WORK_TREE = the project, so it never reads or writes the person's `.git`, index, config or
 * hooks. Global and system git config are not read either (no filters, fsmonitor or hooks of
 * theirs run). Snapshots are trees (`git add` into the shadow index, `git write-tree`), kept
 * alive by one ref per tree; nothing here makes commits.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The empty tree's id (git's well-known constant). */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

export class ShadowGit {
  /** Every git call runs after the previous one ended (one shadow index, one writer). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly gitDir: string,
    readonly workTree: string,
  ) {}

  private get env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
    return { ...env, GIT_DIR: this.gitDir, GIT_WORK_TREE: this.workTree, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };
  }

  /** Creates the store when missing (idempotent). */
  async init(): Promise<void> {
    if (existsSync(join(this.gitDir, "HEAD"))) return;
    mkdirSync(this.gitDir, { recursive: true });
    await this.run(["init", "-q"]);
    for (const [k, v] of [["core.autocrlf", "false"], ["core.filemode", "true"], ["gc.auto", "0"], ["core.hooksPath", "/dev/null"], ["core.fsmonitor", "false"]]) await this.run(["config", k!, v!]);
    writeFileSync(join(this.gitDir, "info", "exclude"), ".git\n");
  }

  /** Runs git (queued); rejects with git's error text when it exits non-zero, unless `allowFail`. */
  run(args: string[], opts: { input?: Buffer | string; allowFail?: boolean } = {}): Promise<GitResult> {
    const next = this.queue.then(() => this.exec(args, opts));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private exec(args: string[], opts: { input?: Buffer | string; allowFail?: boolean }): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      const child = execFile("git", ["-c", "core.quotepath=off", ...args], { cwd: this.workTree, env: this.env, encoding: "buffer", maxBuffer: 512 * 1024 * 1024 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as NodeJS.ErrnoException & { code?: unknown }).code === "number" ? ((err as unknown as { code: number }).code) : 1) : 0;
        const result = { stdout: stdout as Buffer, stderr: (stderr as Buffer).toString("utf8"), code };
        if (code !== 0 && !opts.allowFail) reject(new Error(`checkpoint store (${this.gitDir}): git ${args[0]} failed: ${result.stderr.trim() || (err as Error).message}`));
        else resolve(result);
      });
      if (opts.input !== undefined) child.stdin?.end(opts.input);
      else child.stdin?.end();
    });
  }

  /** Snapshots the work tree into a tree: every file (`paths` undefined: tracked by .gitignore rules) or only `paths` (relative). */
  async snapshot(paths?: readonly string[]): Promise<string> {
    await this.run(["add", "-A", "--ignore-errors", "--", ...(paths && paths.length > 0 ? paths : ["."])], { allowFail: true });
    const tree = (await this.run(["write-tree"])).stdout.toString().trim();
    await this.run(["update-ref", `refs/ink/trees/${tree}`, tree]);
    return tree;
  }

  /** Files that differ between two trees, with lines added and removed (binary: 0/0). */
  async diff(from: string, to: string): Promise<Array<{ path: string; added: number; removed: number }>> {
    if (from === to) return [];
    const out = (await this.run(["diff-tree", "-r", "--no-renames", "--numstat", "-z", from, to])).stdout.toString("utf8");
    const rows: Array<{ path: string; added: number; removed: number }> = [];
    for (const rec of out.split("\0")) {
      const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(rec);
      if (m) rows.push({ path: m[3]!, added: m[1] === "-" ? 0 : Number(m[1]), removed: m[2] === "-" ? 0 : Number(m[2]) });
    }
    return rows;
  }

  /** The blob id and mode of `path` in `tree`, or undefined when the tree has no such file. */
  async entry(tree: string, path: string): Promise<{ blob: string; mode: string } | undefined> {
    const out = (await this.run(["ls-tree", "-z", tree, "--", path])).stdout.toString("utf8");
    const m = /^(\d+) blob ([0-9a-f]+)\t/.exec(out);
    return m ? { mode: m[1]!, blob: m[2]! } : undefined;
  }

  /** The bytes of a blob. */
  async blob(id: string): Promise<Buffer> {
    return (await this.run(["cat-file", "blob", id])).stdout;
  }

  /** The blob id the file at `path` (relative) would have now, or undefined when it does not exist. */
  async hashFile(path: string): Promise<string | undefined> {
    if (!existsSync(join(this.workTree, path))) return undefined;
    const r = await this.run(["hash-object", "--no-filters", "--", path], { allowFail: true });
    return r.code === 0 ? r.stdout.toString().trim() : undefined;
  }

  /** Deletes the refs of trees not in `keep`, then drops unreachable objects. */
  async prune(keep: ReadonlySet<string>): Promise<void> {
    const refs = (await this.run(["for-each-ref", "--format=%(refname)", "refs/ink/trees/"])).stdout.toString().split("\n").filter(Boolean);
    const drop = refs.filter((r) => !keep.has(r.slice("refs/ink/trees/".length)));
    if (drop.length > 0) await this.run(["update-ref", "--stdin"], { input: drop.map((r) => `delete ${r}\n`).join("") });
    await this.run(["reflog", "expire", "--expire=now", "--all"], { allowFail: true });
    await this.run(["gc", "--prune=now", "--quiet"], { allowFail: true });
  }

  /** Bytes the store's objects take (loose and packed). */
  async sizeBytes(): Promise<number> {
    const out = (await this.run(["count-objects", "-v"])).stdout.toString();
    const kb = (key: string) => Number(new RegExp(`^${key}: (\\d+)`, "m").exec(out)?.[1] ?? 0);
    return (kb("size") + kb("size-pack")) * 1024;
  }
}
