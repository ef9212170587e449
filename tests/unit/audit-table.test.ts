import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AuditTable } from "~/features/audit/AuditTable";
import type { AuditEntry } from "~/features/audit/types";

// The audit log's Target column: an invite's entries named its id ("koq3vbp5hcqubd7"), which nothing
// in the console shows; they now name the invite by its channel.
const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  seq: 1,
  at: "2026-12-04 10:00:00.000Z",
  actor: "a".repeat(15),
  actor_name: "alice",
  action: "invite.used",
  target: "koq3vbp5hcqubd7",
  target_name: "",
  channel_name: "#Ops",
  ip: "127.0.0.1",
  device: "",
  details: { channel: "c" },
  prev_hash: "",
  hash: "",
  ...over,
});
const targetCell = (over: Partial<AuditEntry>) => {
  const html = renderToStaticMarkup(createElement(AuditTable, { entries: [entry(over)], onPerson: () => undefined }));
  const cells = [...html.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1].replace(/<[^>]+>/g, ""));
  return cells[4];
};

describe("the audit log's Target column", () => {
  it("names an invite by the channel it is for, never by its id", () => {
    expect(targetCell({})).toBe("An invite to #Ops");
    expect(targetCell({ action: "invite.revoked" })).toBe("An invite to #Ops");
    expect(targetCell({ channel_name: "" })).toBe("An invite");
  });

  it("names a person, a channel, or nothing as before", () => {
    expect(targetCell({ action: "role.changed", target: "b".repeat(15), target_name: "bob" })).toBe("@bob");
    expect(targetCell({ action: "channel.created", target: "c", channel_name: "#Ops" })).toBe("#Ops");
    expect(targetCell({ action: "settings.changed", target: "", channel_name: "" })).toBe("—");
  });
});
