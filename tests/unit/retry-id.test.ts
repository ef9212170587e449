import { describe, expect, it } from "vitest";
import { RetryId } from "~/lib/retry-id";

describe("RetryId", () => {
  it("keeps the id while the same request is asked again, and makes a new one for other content or once answered", () => {
    const retry = new RetryId();
    const first = retry.for("a");
    expect(retry.for("a")).toBe(first);
    const other = retry.for("b");
    expect(other).not.toBe(first);
    retry.answered();
    expect(retry.for("b")).not.toBe(other);
  });
});
