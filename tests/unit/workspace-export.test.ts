import { describe, expect, it } from "vitest";
import { exportFileName, formatExport, type ExportMessage } from "~/features/export/export";

describe("exportFileName", () => {
  it("is the channel name and the date", () => {
    expect(exportFileName("Project X", new Date(2026, 10, 22, 12, 0))).toBe("Project X-2026-11-22.txt");
  });

  it("uses the date where the export is made", () => {
    const instant = new Date("2026-11-22T16:00:00Z");
    expect(exportFileName("ops", instant, { timeZone: "UTC" })).toBe("ops-2026-11-22.txt");
    expect(exportFileName("ops", instant, { timeZone: "Asia/Tokyo" })).toBe("ops-2026-11-23.txt");
    expect(exportFileName("ops", instant, { timeZone: "America/Los_Angeles" })).toBe("ops-2026-11-22.txt");
  });

  it("keeps letters, digits, spaces, - and _, and turns other runs into one -", () => {
    const day = { timeZone: "UTC" };
    const at = new Date("2026-01-05T10:00:00Z");
    expect(exportFileName("R&D / Q4: plans!", at, day)).toBe("R-D - Q4- plans-2026-01-05.txt");
    expect(exportFileName("../../etc/passwd", at, day)).toBe("etc-passwd-2026-01-05.txt");
    expect(exportFileName("Café 日本_team-1", at, day)).toBe("Café 日本_team-1-2026-01-05.txt");
    expect(exportFileName('a\\b:c*d?e"f<g>h|i', at, day)).toBe("a-b-c-d-e-f-g-h-i-2026-01-05.txt");
    expect(exportFileName("line\nbreak", at, day)).toBe("line-break-2026-01-05.txt");
  });

  it("falls back to 'channel' when nothing is left", () => {
    const at = new Date("2026-01-05T10:00:00Z");
    expect(exportFileName("###", at, { timeZone: "UTC" })).toBe("channel-2026-01-05.txt");
    expect(exportFileName("   ", at, { timeZone: "UTC" })).toBe("channel-2026-01-05.txt");
    expect(exportFileName("", at, { timeZone: "UTC" })).toBe("channel-2026-01-05.txt");
  });

  it("keeps long names to 100 characters", () => {
    const name = exportFileName("x".repeat(300), new Date("2026-01-05T10:00:00Z"), { timeZone: "UTC" });
    expect(name).toBe(`${"x".repeat(100)}-2026-01-05.txt`);
  });
});

describe("formatExport", () => {
  const messages: ExportMessage[] = [
    { created: "2026-11-22 16:39:26.123Z", sender: "alice", text: "Hello team", attachments: [] },
    { created: "2026-11-22 16:40:00.000Z", sender: "bob", text: "Two lines:\nsecond\r\n\r\nfourth", attachments: ["report.pdf"] },
    { created: "2026-11-22 23:59:59.999Z", sender: "carol", text: "", attachments: ["voice.webm", "photo.png"] },
  ];

  it("writes a header, then each message with its continuation lines and attachments", () => {
    expect(formatExport("general", messages, new Date("2026-11-22T17:45:10Z"), { timeZone: "UTC" })).toBe(
      [
        "ChatCrypt export of #general",
        "Exported 2026-11-22 17:45",
        "",
        "[2026-11-22 16:39] alice: Hello team",
        "[2026-11-22 16:40] bob: Two lines:",
        "  second",
        "",
        "  fourth",
        "  Attachment: report.pdf",
        "[2026-11-22 23:59] carol:",
        "  Attachment: voice.webm",
        "  Attachment: photo.png",
        "",
      ].join("\n"),
    );
  });

  it("writes times in the given zone, crossing midnight", () => {
    const text = formatExport("general", messages, new Date("2026-11-22T17:45:10Z"), { timeZone: "Asia/Tokyo" });
    expect(text.split("\n").slice(1, 5)).toEqual([
      "Exported 2026-11-23 02:45",
      "",
      "[2026-11-23 01:39] alice: Hello team",
      "[2026-11-23 01:40] bob: Two lines:",
    ]);
    expect(text).toContain("[2026-11-23 08:59] carol:");
  });

  it("uses the environment's zone by default, like exportFileName", () => {
    const at = new Date(2026, 10, 22, 9, 5);
    const text = formatExport("x", [{ created: at.toISOString(), sender: "a", text: "b", attachments: [] }], at);
    expect(text).toBe("ChatCrypt export of #x\nExported 2026-11-22 09:05\n\n[2026-11-22 09:05] a: b\n");
  });

  it("keeps names on one line and an unreadable timestamp as written", () => {
    const text = formatExport(
      "multi\nline",
      [{ created: "yesterday", sender: "eve\nmallory", text: "hi", attachments: ["a\nb.txt"] }],
      new Date("2026-11-22T00:00:00Z"),
      { timeZone: "UTC" },
    );
    expect(text).toBe("ChatCrypt export of #multi line\nExported 2026-11-22 00:00\n\n[yesterday] eve mallory: hi\n  Attachment: a b.txt\n");
  });

  it("heads a direct conversation with @, as the app names it", () => {
    expect(formatExport("Trio", [], new Date("2026-11-22T00:00:00Z"), { timeZone: "UTC", direct: true })).toBe(
      "ChatCrypt export of @Trio\nExported 2026-11-22 00:00\n\n",
    );
  });

  it("exports a channel without messages as just the header", () => {
    expect(formatExport("empty", [], new Date("2026-11-22T00:00:00Z"), { timeZone: "UTC" })).toBe(
      "ChatCrypt export of #empty\nExported 2026-11-22 00:00\n\n",
    );
  });
});
