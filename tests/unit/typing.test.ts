import { describe, expect, it } from "vitest";
import { typingText } from "~/features/typing/typing.client";

describe("the typing indicator's words", () => {
  it("names one or two people, and stops naming at three", () => {
    expect(typingText([])).toBe("");
    expect(typingText(["alice"])).toBe("alice is typing…");
    expect(typingText(["alice", "bob"])).toBe("alice and bob are typing…");
    expect(typingText(["alice", "bob", "carol"])).toBe("Several people are typing…");
  });
});
