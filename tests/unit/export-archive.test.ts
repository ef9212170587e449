import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { zipExport } from "~/features/export/archive.client";
import { formatExport } from "~/features/export/export";

// "Export my data"'s .zip (docs/decisions/0076-export-and-group-renames.md): data.json, a file per
// conversation, and a README naming the conversations this device could not read.

describe("the export's .zip", () => {
  const text = formatExport(
    "general",
    [{ created: "2026-11-29 08:00:00.000Z", sender: "alice", text: "hello", attachments: ["plan.pdf"] }],
    new Date("2026-11-29T09:00:00Z"),
    { timeZone: "UTC", fileLine: (name) => `(file: ${name})` },
  );

  it("holds data.json, each conversation and a README that names what was left out", () => {
    const zip = unzipSync(
      zipExport(
        { account: { username: "alice" } },
        {
          files: [{ title: "#general", fileName: "general-2026-11-29.txt", text }],
          skipped: [{ title: "#vault", reason: "could not be read on this device" }],
        },
      ),
    );
    expect(Object.keys(zip).sort()).toEqual(["README.txt", "conversations/general-2026-11-29.txt", "data.json"]);
    expect(JSON.parse(strFromU8(zip["data.json"]))).toEqual({ account: { username: "alice" } });
    expect(strFromU8(zip["conversations/general-2026-11-29.txt"])).toBe(
      "ChatCrypt export of #general\nExported 2026-11-29 09:00\n\n[2026-11-29 08:00] alice: hello\n  (file: plan.pdf)\n",
    );
    expect(strFromU8(zip["README.txt"])).toContain("Left out of this export:\n- #vault: could not be read on this device\n");
  });

  it("says nothing was left out when every conversation was read", () => {
    const zip = unzipSync(zipExport({}, { files: [], skipped: [] }));
    expect(strFromU8(zip["README.txt"])).not.toContain("Left out");
  });
});
