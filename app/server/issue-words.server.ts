import { z } from "zod";

// What a refused body is told (issue 47: "a clear 4xx with a clear message"): a schema's own words
// where it has them; in place of the validation library's defaults ("Required", "Expected object,
// received array", "Unrecognized key(s) in object: 'a'"), words that name the field and what it takes.

const A: Record<string, string> = { object: "an object", array: "a list", string: "text", number: "a number", boolean: "true or false" };

const isDefault = (issue: z.ZodIssue) => issue.message === z.defaultErrorMap(issue, { defaultError: "", data: undefined }).message;

/** The words for the first problem a schema found in a request's body (or in an upload's fields). */
export function issueWords(issue: z.ZodIssue | undefined): string {
  if (!issue) return "The request is not valid.";
  const field = issue.path.join(".");
  if (!isDefault(issue)) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      if (!field) return `The request body must be ${A[issue.expected] ?? issue.expected}.`;
      if (issue.received === "undefined") return `${field} is required.`;
      return `${field} must be ${A[issue.expected] ?? issue.expected}.`;
    case "unrecognized_keys":
      return `Unknown field${issue.keys.length === 1 ? "" : "s"}${field ? ` in ${field}` : ""}: ${issue.keys.join(", ")}.`;
    case "invalid_union_discriminator":
      return `${field} must be ${issue.options.map((o) => `"${String(o)}"`).join(" or ")}.`;
    default:
      return field ? `${field}: ${issue.message}` : issue.message;
  }
}
