// SECURITY.md "Limits" lists every cap with its test (issue 47): each row's test file exists and
// holds each test it names (a Go test as a function; numbers in a title may come from a constant).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const security = readFileSync(path.join(root, "SECURITY.md"), "utf8");

/** The rows of the Limits table: [cap, answer, test]. */
function limitRows(): string[][] {
  const section = security.slice(security.indexOf("\n## Limits\n"));
  const table = section.slice(0, section.indexOf("\n\n", section.indexOf("\n|")));
  return table
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| Cap "))
    .map((line) => line.split(" | ").map((cell) => cell.replace(/^\| | \|$/g, "")));
}

/** A title as a pattern: a number in it may be written as a constant in the test (`${UPLOADS_PER_ACCOUNT}`). */
const titlePattern = (title: string) => new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\d+/g, "(\\d+|\\$\\{[A-Z_]+\\})"));

/** Without the asides, "(also in ...)" and "(... cases)": they name cases of a test, not titles. */
const outsideParentheses = (text: string) => text.replace(/ \((also |[^)]* cases\))[^)]*\)?/g, "");

/** What a Test cell cites: each file with the titles named after it ("same file" and "same test" keep the last). */
function citations(cell: string): { file: string; titles: string[] }[] {
  const cited: { file: string; titles: string[] }[] = [];
  for (const [, file, quoted] of outsideParentheses(cell).matchAll(/`([^`]+)`|"([^"]+)"/g)) {
    if (file && /^(tests|pocketbase)\//.test(file)) cited.push({ file, titles: [] });
    else if (file && cited.length) cited.at(-1)!.titles.push(`func ${file}(`);
    else if (quoted && cited.length) cited.at(-1)!.titles.push(quoted);
  }
  return cited;
}

describe("SECURITY.md Limits", () => {
  it("names an existing test for every cap, and each test it names is in its file", () => {
    const rows = limitRows();
    expect(rows.length).toBeGreaterThanOrEqual(15);
    let previous: { file: string; titles: string[] }[] = [];
    for (const [cap, , test] of rows) {
      const cited = citations(test);
      const sameFile = /^same (file|test)/.test(test);
      const all = sameFile
        ? [
            {
              file: previous.at(-1)!.file,
              titles:
                outsideParentheses(test)
                  .match(/"([^"]+)"/g)
                  ?.map((t) => t.slice(1, -1)) ?? [],
            },
          ]
        : cited;
      expect(all.length, cap).toBeGreaterThan(0);
      for (const { file, titles } of all) {
        expect(existsSync(path.join(root, file)), `${cap}: ${file}`).toBe(true);
        const source = readFileSync(path.join(root, file), "utf8");
        for (const title of titles)
          expect(title.startsWith("func ") ? source.includes(title) : titlePattern(title).test(source), `${cap}: ${file} "${title}"`).toBe(
            true,
          );
      }
      if (!sameFile) previous = cited;
    }
  });
});
