// No name from a request is an operation by accident (issue 47, item 4): tables looked up by a name
// that comes from a request answer only their own entries, never Object.prototype's.
import { describe, expect, it } from "vitest";
import { isSealedOperation } from "~/features/sealed/sealed.server";
import { actionWords } from "~/features/audit/actions";

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

describe("prototype names", () => {
  it("are no operation of the sealed delivery route (POST /api/sealed/<id>/<name>)", () => {
    expect(PROTOTYPE_NAMES.length).toBeGreaterThan(10);
    for (const name of PROTOTYPE_NAMES) expect(isSealedOperation(name), name).toBe(false);
    for (const name of ["group", "commits", "reset", "group-info", "external-join"]) expect(isSealedOperation(name), name).toBe(true);
  });

  it("are shown as they are in the audit log, not as a function's text", () => {
    for (const name of PROTOTYPE_NAMES) expect(actionWords(name), name).toBe(name);
    expect(actionWords("reset_code.issued")).toBe("Reset code issued");
  });
});
