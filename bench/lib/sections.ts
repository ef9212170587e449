// A bench phase's section of a docs/ report: replaced in place when the file has it (from its heading to
// the next "## " heading), appended otherwise, so phases run in any order keep each other's sections.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

export function writeSection(file: string, heading: string, section: string) {
  const doc = existsSync(file) ? readFileSync(file, "utf8") : "";
  const at = doc.indexOf(heading);
  if (at < 0) {
    writeFileSync(file, `${doc.trimEnd()}\n\n${section.trimEnd()}\n`);
    return;
  }
  const next = doc.indexOf("\n## ", at + heading.length);
  const rest = next < 0 ? "" : `\n\n${doc.slice(next + 1).trimEnd()}`;
  writeFileSync(file, `${doc.slice(0, at).trimEnd()}\n\n${section.trimEnd()}${rest}\n`);
}
