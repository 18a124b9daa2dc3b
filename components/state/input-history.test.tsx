import { describe, expect, it } from "vitest";
import { FRESH_RECALL, recallNext, recallPrevious } from "./input-history.js";

describe("prompt history recall", () => {
  const history = ["first", "second", "third"];
  it("walks back from the newest entry, stops at the oldest, and restores the draft on the way down", () => {
    let r = recallPrevious(history, FRESH_RECALL, "my draft");
    expect(r.value).toBe("third");
    r = recallPrevious(history, r, r.value);
    expect(r.value).toBe("second");
    r = recallPrevious(history, recallPrevious(history, r, r.value), "");
    expect(r.value).toBe("first");
    r = recallNext(history, r, r.value);
    expect(r.value).toBe("second");
    r = recallNext(history, recallNext(history, r, r.value), "");
    expect(r.value).toBe("my draft");
    expect(r.back).toBe(0);
    expect(recallNext(history, r, "my draft").value).toBe("my draft");
  });
  it("does nothing with no history and stays valid when history grows", () => {
    expect(recallPrevious([], FRESH_RECALL, "x").value).toBe("x");
    const r = recallPrevious(history, FRESH_RECALL, "");
    expect(recallPrevious([...history, "fourth"], FRESH_RECALL, "").value).toBe("fourth");
    expect(recallNext([...history, "fourth"], r, "").value).toBe("");
  });
});
