import { describe, expect, it } from "vitest";
import { acceptFor, isAllowedFile, refusalFor } from "../../app/features/files/policy";
import { filePolicySchema } from "../../app/features/files/validation";

describe("files people can send (ADR 71)", () => {
  it("the specification's list by default; office documents and .csv when widened; anything with 'any'", () => {
    expect(acceptFor("standard")).toBe("image/*,.pdf,.txt,.zip");
    expect(acceptFor("office")).toContain(".docx");
    expect(acceptFor("office")).toContain(".csv");
    expect(acceptFor("any")).toBeUndefined();
    expect(isAllowedFile("plan.docx", "application/octet-stream", "standard")).toBe(false);
    expect(isAllowedFile("photo.heic", "image/heic", "standard")).toBe(true);
    expect(isAllowedFile("Notes.TXT", "", "standard")).toBe(true);
    for (const name of ["plan.docx", "budget.csv", "sheet.xlsx", "deck.odp"]) expect(isAllowedFile(name, "", "office")).toBe(true);
    expect(isAllowedFile("run.exe", "application/octet-stream", "office")).toBe(false);
    expect(isAllowedFile("run.exe", "application/octet-stream", "any")).toBe(true);
    expect(refusalFor("standard")).toBe("Only images, .pdf, .txt and .zip files can be sent.");
  });

  it("the console's values: a kind from the list and a whole number of MB, nothing else", () => {
    expect(filePolicySchema.safeParse({ types: "office", maxMb: 20 }).success).toBe(true);
    for (const bad of [
      { types: "exe", maxMb: 1 },
      { types: "any", maxMb: 0 },
      { types: "any", maxMb: 2.5 },
      { types: "any", maxMb: 5, x: 1 },
    ])
      expect(filePolicySchema.safeParse(bad).success).toBe(false);
  });
});
