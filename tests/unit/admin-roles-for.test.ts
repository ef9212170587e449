import { describe, expect, it } from "vitest";
import { rolesFor } from "~/features/admin/PersonCard";
import type { AdminPerson } from "~/features/admin/types";

const person = (change: Partial<AdminPerson>) =>
  ({ id: "p", email: "p@example.com", username: "p", role: "member", deactivated: false, ...change }) as AdminPerson;

// The roles the console's select offers for a person (the server refuses the rest in words).
describe("the roles the console offers", () => {
  it("the owner may give any role to an active person; an admin only member or guest", () => {
    expect(rolesFor("owner", person({}))).toEqual(["owner", "admin", "member", "guest"]);
    expect(rolesFor("admin", person({}))).toEqual(["member", "guest"]);
    expect(rolesFor("admin", person({ role: "admin" }))).toEqual(["admin"]);
  });

  it("never offers to name a deactivated person owner (the workspace would keep an owner who cannot sign in)", () => {
    expect(rolesFor("owner", person({ deactivated: true }))).toEqual(["admin", "member", "guest"]);
    // an owner deactivated before that held keeps their role in the list
    expect(rolesFor("owner", person({ role: "owner", deactivated: true }))).toContain("owner");
  });
});
