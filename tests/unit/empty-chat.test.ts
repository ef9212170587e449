import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EmptyChat } from "~/features/workspace/EmptyChat";

// The chat pane with no channel selected says the next step each person can take: a guest, who can
// neither create nor join a channel, is not told to start one.
const said = (props: Parameters<typeof EmptyChat>[0]) =>
  /<p class="chat-empty-next">([^<]*)<\/p>/.exec(renderToStaticMarkup(createElement(EmptyChat, props)))?.[1];

describe("the chat pane with no channel selected", () => {
  it("offers starting another channel only to someone who can", () => {
    const create = () => {};
    expect(said({ hasChannels: true, onCreate: create, onJoin: create })).toBe("Pick a channel from the list, or start another one.");
    expect(said({ hasChannels: true })).toBe("Pick a channel from the list.");
    expect(said({ hasChannels: false })).toBe("You are not in any channel yet. Join one with its invite link.");
  });
});
