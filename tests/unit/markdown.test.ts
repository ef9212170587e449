import { describe, expect, it } from "vitest";
import { insideOpenFence, wrapSelection } from "~/features/markdown/compose";
import { looksLikeMarkdown } from "~/features/markdown/markdown";

describe("which texts are read as Markdown", () => {
  it("plain chat stays plain; any Markdown syntax goes to the parser", () => {
    for (const plain of ["hello there", "see https://example.com/a-b today", "@alice can you look?", "3 + 4 = 7", "it's 5 p.m."])
      expect(looksLikeMarkdown(plain), plain).toBe(false);
    for (const marked of [
      "**bold**",
      "_it_",
      "`code`",
      "```\nx\n```",
      "> quote",
      "- item",
      "1. first",
      "# title",
      "a | b",
      "[x](y)",
      "~~gone~~",
      "&lt;b&gt;",
    ])
      expect(looksLikeMarkdown(marked), marked).toBe(true);
  });
});

describe("the composer's Markdown keys", () => {
  it("wraps the selection, or puts an empty pair at the caret", () => {
    expect(wrapSelection("make this bold", 5, 9, "**")).toEqual({ text: "make **this** bold", start: 7, end: 11 });
    expect(wrapSelection("x", 1, 1, "`")).toEqual({ text: "x``", start: 2, end: 2 });
  });

  it("knows when Enter is inside an open fenced block", () => {
    expect(insideOpenFence("```ts\nconst a = 1;")).toBe(true);
    expect(insideOpenFence("```ts\nconst a = 1;\n```")).toBe(false);
    expect(insideOpenFence("no fence here")).toBe(false);
    expect(insideOpenFence("~~~\ncode")).toBe(true);
  });
});
