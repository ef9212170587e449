import { z } from "zod";
import { describe, expect, it } from "vitest";
import { issueWords } from "~/server/issue-words.server";

// A refused body's words (issue 47: "a clear 4xx with a clear message"): the routes answered the
// validation library's own ("Required", "Expected object, received array", "Expected number, received
// nan", "Unrecognized key(s) in object: 'a'", "Invalid discriminator value. Expected 'open' | 'confirm'").
const words = (schema: z.ZodTypeAny, body: unknown) => {
  const parsed = schema.safeParse(body);
  return parsed.success ? "" : issueWords(parsed.error.issues[0]);
};
const body = z.object({ email: z.string(), size: z.coerce.number(), tags: z.array(z.string()).optional() }).strict();

describe("a refused body's words", () => {
  it("name the field and what it takes, in place of the library's defaults", () => {
    expect(words(body, [])).toBe("The request body must be an object.");
    expect(words(body, null)).toBe("The request body must be an object.");
    expect(words(body, { size: 1 })).toBe("email is required.");
    expect(words(body, { email: 1, size: 1 })).toBe("email must be text.");
    expect(words(body, { email: "a", size: "abc" })).toBe("size must be a number.");
    expect(words(body, { email: "a", size: 1, tags: "x" })).toBe("tags must be a list.");
    expect(words(body, { email: "a", size: 1, a: 1, b: 2 })).toBe("Unknown fields: a, b.");
    const step = z.discriminatedUnion("step", [z.object({ step: z.literal("open") }), z.object({ step: z.literal("confirm") })]);
    expect(words(step, { step: "x" })).toBe('step must be "open" or "confirm".');
  });

  it("keep a schema's own words", () => {
    expect(words(z.object({ n: z.number({ message: "n must be a number." }) }), { n: "x" })).toBe("n must be a number.");
    expect(words(z.object({ name: z.string().min(1, "Missing file name.") }), { name: "" })).toBe("Missing file name.");
    expect(issueWords(undefined)).toBe("The request is not valid.");
  });
});
