import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { InviteList } from "~/features/invites/InviteList";
import type { InviteSummary } from "~/features/invites/types";

// The invite list's line for each link: who made it, its expiry, its uses (counted in words), its status.
const invite = (over: Partial<InviteSummary>): InviteSummary => ({
  id: "i".repeat(15),
  channel_id: "c".repeat(15),
  channel_name: "Ops",
  sealed: false,
  created_by: "u".repeat(15),
  created_by_name: "carol",
  created: "2026-12-01 09:00:00.000Z",
  expires: "",
  max_uses: 0,
  uses: 0,
  status: "valid",
  ...over,
});
const line = (over: Partial<InviteSummary>) =>
  renderToStaticMarkup(createElement(InviteList, { invites: [invite(over)], showChannel: true, onRevoke: () => undefined }))
    .replace(/<[^>]+>/g, "")
    .replace("Revoke", "");

describe("an invite's line", () => {
  it("counts unlimited uses in words: 0 uses, 1 use, 2 uses", () => {
    expect(line({ uses: 0 })).toBe("#Ops made by carol, never expires, 0 uses, active");
    expect(line({ uses: 1 })).toBe("#Ops made by carol, never expires, 1 use, active");
    expect(line({ uses: 2, status: "revoked" })).toBe("#Ops made by carol, never expires, 2 uses, revoked");
  });

  it("counts limited uses against the limit", () => {
    expect(line({ uses: 3, max_uses: 10 })).toContain("3 of 10 uses");
  });

  it("names each Revoke by its invite: two of one channel differ by expiry and uses", () => {
    const html = renderToStaticMarkup(
      createElement(InviteList, {
        invites: [invite({ id: "a".repeat(15), max_uses: 10 }), invite({ id: "b".repeat(15), expires: "2026-12-08 09:00:00.000Z" })],
        showChannel: true,
        onRevoke: () => undefined,
      }),
    );
    const names = [...html.matchAll(/aria-label="([^"]+)"/g)].map((m) => m[1]);
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^Revoke the invite to #Ops made by carol on .+, never expires, 0 of 10 uses$/);
    expect(names[1]).toMatch(/^Revoke the invite to #Ops made by carol on .+, expires .+, 0 uses$/);
  });
});
