import { describe, expect, it } from "vitest";
import { setBounded } from "../../app/lib/bounded-map";

describe("setBounded", () => {
  it("drops the oldest entry when full, and none when a present key is updated", () => {
    const map = new Map<string, number>();
    setBounded(map, "a", 1, 2);
    setBounded(map, "b", 2, 2);
    setBounded(map, "b", 3, 2);
    expect([...map]).toEqual([
      ["a", 1],
      ["b", 3],
    ]);
    setBounded(map, "c", 4, 2);
    expect([...map]).toEqual([
      ["b", 3],
      ["c", 4],
    ]);
  });
});
