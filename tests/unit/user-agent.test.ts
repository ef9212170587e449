import { describe, expect, it } from "vitest";
import { describeUserAgent } from "~/lib/user-agent";

describe("describeUserAgent", () => {
  it("names the browser and the system", () => {
    const cases: [string, string][] = [
      ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36", "Chrome on Linux"],
      [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0",
        "Edge on Windows",
      ],
      ["Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:121.0) Gecko/20100101 Firefox/121.0", "Firefox on macOS"],
      [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
        "Safari on iOS",
      ],
      [
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36",
        "Chrome on Android",
      ],
      ["curl/8.0", "Browser"],
      ["", "Browser"],
    ];
    for (const [ua, want] of cases) expect(describeUserAgent(ua), ua).toBe(want);
  });
});
