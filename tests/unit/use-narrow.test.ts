import { afterEach, describe, expect, it, vi } from "vitest";

/** A window whose matchMedia counts the lists it builds; `width` decides whether the phone's query matches. */
function fakeWindow() {
  const state = { width: 1280, built: 0 };
  const listeners = new Set<() => void>();
  const matchMedia = (query: string) => {
    state.built++;
    expect(query).toBe("(max-width: 720px)");
    return {
      get matches() {
        return state.width <= 720;
      },
      addEventListener: (_: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
    };
  };
  return { state, listeners, window: { matchMedia } };
}

describe("useNarrow's reading of the screen width", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it("builds one media query list however often rows read it, and follows the width", async () => {
    const fake = fakeWindow();
    vi.stubGlobal("window", fake.window);
    const { narrowNow } = await import("~/ui/useNarrow.client");
    for (let i = 0; i < 100; i++) expect(narrowNow()).toBe(false);
    fake.state.width = 400;
    expect(narrowNow()).toBe(true);
    expect(fake.state.built).toBe(1);
  });

  it("is false where there is no window (the server's render)", async () => {
    const { narrowNow } = await import("~/ui/useNarrow.client");
    expect(narrowNow()).toBe(false);
  });
});
