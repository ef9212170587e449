import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The signed-in screen only wires the features' hooks together (issue #48, ADR 0078): what a
// conversation's group needs is done by the hooks that own it (useChannels, useDirect).
const source = readFileSync(path.resolve(__dirname, "../../app/features/workspace/Workspace.tsx"), "utf8");

describe("Workspace.tsx", () => {
  it("makes no conversation's group and changes no participant list itself", () => {
    for (const inline of ["conversationAdded", "changeParticipants", "conversationLeft", ".prepare("]) expect(source).not.toContain(inline);
  });

  it("holds no dialog's action or send logic (workspace/actions.ts does)", () => {
    for (const logic of ["clearMessages", "alsoQuietHours", "beforeLeave", "async function send"]) expect(source).not.toContain(logic);
  });
});
