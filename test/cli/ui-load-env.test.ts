import { describe, expect, it } from "vitest";
import { withUiLoadEnv } from "../../src/cli/ui-load-env.js";

describe("withUiLoadEnv", () => {
  it("loads the UI without CI variables and changes nothing else (NODE_ENV is the bundle's, set at build time), then restores the environment exactly", async () => {
    const env: NodeJS.ProcessEnv = { CI: "true", CONTINUOUS_INTEGRATION: "1", PATH: "/bin" };
    const seen = await withUiLoadEnv(async () => ({ ...env }), env);
    expect(seen).toEqual({ PATH: "/bin" });
    expect(env).toEqual({ CI: "true", CONTINUOUS_INTEGRATION: "1", PATH: "/bin" });
  });

  it("keeps a NODE_ENV the person set, and restores even when loading fails", async () => {
    const env: NodeJS.ProcessEnv = { NODE_ENV: "development", CI: "1" };
    let seen: string | undefined;
    await expect(
      withUiLoadEnv(async () => {
        seen = env.NODE_ENV;
        throw new Error("boom");
      }, env),
    ).rejects.toThrow("boom");
    expect(seen).toBe("development");
    expect(env).toEqual({ NODE_ENV: "development", CI: "1" });
  });
});
