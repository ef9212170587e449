import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emit, followers, on } from "~/lib/events";

// The page's one event hub (ADR 0078): features signal each other through app/lib/events.ts, where
// every event is named, typed and explained, and keep no listener set of their own.
const root = path.resolve(__dirname, "../../app");
const HUB = path.join(root, "lib/events.ts");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

// a set of functions kept at the top of a module (a class's own field is not one, nor a table of
// sends waiting for their own answer by key, as in messages/committed.server.ts)
const LISTENER_SET = /^(?:export )?(?:const|let|var) \w+ = new Set<[^>]*=>/;

describe("the event hub", () => {
  it("hands each handler the payload, in the order they came, until stopped", () => {
    const heard: string[] = [];
    const stopA = on("session:ended", (reason) => heard.push(`a ${reason}`));
    const stopB = on("session:ended", (reason) => heard.push(`b ${reason}`));
    emit("session:ended", "signed out");
    stopA();
    emit("session:ended", "again");
    stopB();
    emit("session:ended", "unheard");
    expect(heard).toEqual(["a signed out", "b signed out", "b again"]);
    expect(followers("session:ended")).toBe(0);
  });

  it("a handler added or removed during an event counts from the next one", () => {
    const heard: string[] = [];
    let stopLate = () => {};
    const stopFirst = on("threads:changed", () => {
      heard.push("first");
      stopSecond();
      stopLate = on("threads:changed", () => heard.push("late"));
    });
    const stopSecond = on("threads:changed", () => heard.push("second"));
    emit("threads:changed");
    expect(heard).toEqual(["first", "second"]);
    stopFirst();
    emit("threads:changed");
    expect(heard).toEqual(["first", "second", "late"]);
    stopLate();
  });

  it("events of other names are not heard", () => {
    let heard = 0;
    const stop = on("call:event", () => heard++);
    emit("call:ended", "c1");
    expect(heard).toBe(0);
    emit("call:event", "c1");
    expect(heard).toBe(1);
    stop();
  });
});

describe("signals are followed through the hub only", () => {
  it("no module of the app keeps a listener set of its own", () => {
    const found = sources(root)
      .filter((file) => file !== HUB)
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .flatMap((line, i) => (LISTENER_SET.test(line) ? [`${path.relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(found).toEqual([]);
  });

  it("the pattern finds such a set (the check is not blind)", () => {
    expect(LISTENER_SET.test("const listeners = new Set<() => void>();")).toBe(true);
    expect(LISTENER_SET.test("const statusListeners = new Set<(channelId: string) => void>();")).toBe(true);
    expect(LISTENER_SET.test("  private listeners = new Set<() => void>();")).toBe(false);
    expect(LISTENER_SET.test("const seen = new Set<string>();")).toBe(false);
  });

  it("every event in the hub says who emits it and who listens", () => {
    const lines = readFileSync(HUB, "utf8").split("\n");
    const events = lines.flatMap((line, i) => (/^ {2}"[\w:-]+": /.test(line) ? [i] : []));
    expect(events.length).toBeGreaterThan(20);
    for (const i of events) expect(lines[i - 1], lines[i]).toMatch(/^ {2}\/\*\* .+\. .+ \*\/$/);
  });
});
