import { describe, expect, it } from "vitest";
import { newestWins } from "~/lib/newest-wins";

// The channel list reloads when the page creates a channel, on every live "sync" and on membership
// events; their answers can arrive out of order.
describe("newestWins", () => {
  it("drops an older answer that arrives after a newer one was applied", () => {
    const loads = newestWins();
    const beforeCreate = loads.start();
    const afterCreate = loads.start();
    expect(loads.apply(afterCreate)).toBe(true);
    expect(loads.apply(beforeCreate)).toBe(false);
  });

  it("applies answers that arrive in order, and a later load's after an earlier one's", () => {
    const loads = newestWins();
    const a = loads.start();
    expect(loads.apply(a)).toBe(true);
    const b = loads.start();
    const c = loads.start();
    expect(loads.apply(b)).toBe(true);
    expect(loads.apply(c)).toBe(true);
    expect(loads.apply(c)).toBe(false);
  });
});
