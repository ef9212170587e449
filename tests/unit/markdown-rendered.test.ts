import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";

// react-markdown's parser, counted: a message's Markdown is parsed once per version (ADR 73).
const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock("react-markdown", async (original) => {
  const real = (await original()) as { default: (...args: unknown[]) => unknown };
  return {
    ...real,
    default: (...args: unknown[]) => {
      parses.count += 1;
      return real.default(...args);
    },
  };
});

const { default: Markdown } = await import("~/features/markdown/Markdown");
const { renderedTrees } = await import("~/features/markdown/rendered");

const show = (props: { id?: string; text: string; username: string; lang?: string }) =>
  renderToStaticMarkup(createElement(Markdown, props));

describe("Markdown rendered once per message version", () => {
  beforeEach(() => void (parses.count = 0));

  it("a re-render of the same message version does not parse again; an edit does", () => {
    const first = show({ id: "m1", text: "**bold** and `code`", username: "alice" });
    expect(first).toContain("<strong>bold</strong>");
    expect(parses.count).toBe(1);
    expect(show({ id: "m1", text: "**bold** and `code`", username: "alice" })).toBe(first);
    expect(parses.count).toBe(1);

    // the sender's edit: a new version, parsed and shown
    const edited = show({ id: "m1", text: "**bolder** now", username: "alice" });
    expect(edited).toContain("<strong>bolder</strong>");
    expect(parses.count).toBe(2);
    expect(show({ id: "m1", text: "**bolder** now", username: "alice" })).toBe(edited);
    expect(parses.count).toBe(2);
  });

  it("another message with the same text, another reader or a translation is its own rendering", () => {
    show({ id: "m2", text: "hi @bob _there_", username: "alice" });
    show({ id: "m3", text: "hi @bob _there_", username: "alice" });
    expect(parses.count).toBe(2);
    // the reader's own mentions stand out: bob's rendering is not alice's
    expect(show({ id: "m2", text: "hi @bob _there_", username: "bob" })).toContain("mention-own");
    expect(parses.count).toBe(3);
    show({ id: "m2", text: "salut @bob _là_", username: "bob", lang: "fr" });
    show({ id: "m2", text: "hi @bob _there_", username: "bob" });
    expect(parses.count).toBe(4);
  });

  it("keeps at most its bound, the oldest going first", () => {
    const trees = renderedTrees<number>(2);
    const build = vi.fn(() => 1);
    trees("a", "x", "u", build);
    trees("b", "x", "u", build);
    trees("c", "x", "u", build);
    trees("c", "x", "u", build);
    trees("b", "x", "u", build);
    expect(build).toHaveBeenCalledTimes(3);
    trees("a", "x", "u", build);
    expect(build).toHaveBeenCalledTimes(4);
  });
});
