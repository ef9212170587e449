import { describe, expect, it } from "vitest";
import { callNames } from "~/features/calls/names";

const person = (identity: string, name: string, local = false) => ({ identity, name, local });

describe("the names a call shows", () => {
  it("says which tile is the user's own device, and names a second device of anyone apart", () => {
    const names = callNames([
      person("bob1:phone", "bob"),
      person("alice1:laptop", "alice"),
      person("bob1:laptop", "bob"),
      person("alice1:tablet", "alice", true),
    ]);
    expect(names.get("alice1:tablet")).toBe("alice (you)");
    expect(names.get("alice1:laptop")).toBe("alice (you, on another device)");
    expect(names.get("bob1:phone")).toBe("bob");
    expect(names.get("bob1:laptop")).toBe("bob (another device)");
    expect(new Set(names.values()).size).toBe(4);
  });

  it("leaves one device per person as it was", () => {
    const names = callNames([person("alice1:laptop", "alice", true), person("bob1:phone", "bob"), person("carol1:pc", "carol")]);
    expect([...names.values()]).toEqual(["alice (you)", "bob", "carol"]);
  });
});
