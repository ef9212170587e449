// No name from a request is an operation by accident (issue 47, item 4): tables looked up by a name
// that comes from a request answer only their own entries, never Object.prototype's.
import { describe, expect, it } from "vitest";
import { isSealedOperation } from "~/features/sealed/sealed.server";
import { actionWords } from "~/features/audit/actions";
import { auditQuery } from "~/features/audit/audit.server";

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

  it("are no parameter of the audit log's query (GET /api/admin/audit): 400, as any unknown one", () => {
    for (const name of PROTOTYPE_NAMES) {
      let thrown: unknown;
      try {
        auditQuery(new URL(`http://localhost/api/admin/audit?${encodeURIComponent(name)}=1`));
      } catch (error) {
        thrown = error;
      }
      expect(thrown instanceof Response && thrown.status, name).toBe(400);
    }
    expect(auditQuery(new URL("http://localhost/api/admin/audit?page=2&action=signin."))).toEqual({ page: "2", action: "signin." });
  });
});
