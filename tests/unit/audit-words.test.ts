import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ACTION_FILTERS, actionWords } from "~/features/audit/actions";

// Every action the server writes into the audit log reads as words in the console, and can be chosen in
// its Action filter ("retention.swept" read as its raw code twice, and had no filter).
function sources(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path, ext);
    return ext.test(name) ? [path] : [];
  });
}

const written = new Set(
  [...sources("pb_hooks", /\.js$/), ...sources("pocketbase", /\.go$/)].flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/[Aa]ction: "([a-z_]+\.[a-z_]+)"/g)].map((m) => m[1]),
  ),
);

describe("audit log words", () => {
  it("finds the actions the server writes", () => {
    expect(written.size).toBeGreaterThan(20);
    expect(written).toContain("retention.swept");
  });

  it.each([...written])("%s has words and a filter", (action) => {
    expect(actionWords(action)).not.toBe(action);
    expect(ACTION_FILTERS.map((f) => f.value)).toContain(action);
  });
});

describe("a removal's words", () => {
  it("fit a direct conversation and a sealed channel as well as a channel (the details say which)", () => {
    expect(actionWords("member.removed")).toBe("Removed from a conversation");
  });
});
