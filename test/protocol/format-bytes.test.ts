/** One byte-size format for tool results and MCP captions alike. */
import { expect, it } from "vitest";
import { formatBytes } from "../../src/protocol/format-bytes.js";

it("writes bytes, then KB and MB with one decimal (1 KB = 1024 bytes)", () => {
  expect([0, 1023, 1024, 12 * 1024, 100_000, 1024 * 1024, 10 * 1024 * 1024].map(formatBytes)).toEqual(["0 B", "1023 B", "1.0 KB", "12.0 KB", "97.7 KB", "1.0 MB", "10.0 MB"]);
});
