/** "did you mean" suggestions: the nearest known word, allowing more edits in longer words. */
import { describe, expect, it } from "vitest";
import { closestWord, editDistance } from "../../src/protocol/edit-distance.js";

describe("closestWord", () => {
  const options = ["max-children", "model", "mode", "continue", "resume", "inline"];

  it("suggests a long option three edits away and a short one two away", () => {
    expect(editDistance("maxchilds", "maxchildren")).toBe(3);
    expect(closestWord("max-childs", options)).toBe("max-children");
    expect(closestWord("contiue", options)).toBe("continue");
    expect(closestWord("mdl", options)).toBe("model");
  });

  it("picks the nearest candidate, not the first one near enough", () => {
    expect(closestWord("mode", options)).toBe("mode");
    expect(closestWord("inlin", ["inlet", "inline"])).toBe("inline"); // "inlet" is two edits away, "inline" one
  });

  it("suggests nothing for a word far from every candidate", () => {
    expect(closestWord("xyz", options)).toBeUndefined();
    expect(closestWord("frobnicate", options)).toBeUndefined();
  });
});
