import { useSyncExternalStore } from "react";
import type { InviteLimits } from "~/features/invites/types";
import { emit, on } from "~/lib/events";

/**
 * The invite questions the page asks (docs/decisions/0057-invites-and-bans.md), one at a time: "Join
 * #x? Invited by NAME" before a signed-in person joins anything, a refused invite's reason, and the
 * expiry and uses of a new invite. Whoever asks awaits the answer; <InviteDialogs> shows the question.
 */
export type InviteQuestion =
  | { kind: "join"; title: string; answer: (join: boolean) => void }
  | { kind: "refused"; text: string; answer: (seen: boolean) => void }
  | { kind: "create"; channelName: string; sealed: boolean; channelId: string; answer: (limits: InviteLimits | null) => void };

let current: InviteQuestion | null = null;

function show(question: InviteQuestion | null) {
  current = question;
  emit("invite:question");
}

/** Asks one question; a question still open is answered "no" first. */
function ask<T>(make: (answer: (value: T) => void) => InviteQuestion, no: T): Promise<T> {
  current?.answer(no as never);
  return new Promise<T>((resolve) => {
    const question = make((value: T) => {
      if (current === question) show(null);
      resolve(value);
    });
    show(question);
  });
}

export const askToJoin = (title: string) => ask<boolean>((answer) => ({ kind: "join", title, answer }), false);
export const sayRefused = (text: string) => ask<boolean>((answer) => ({ kind: "refused", text, answer }), false);
export const askInviteLimits = (channelName: string, sealed: boolean, channelId: string) =>
  ask<InviteLimits | null>((answer) => ({ kind: "create", channelName, sealed, channelId, answer }), null);

export function useInviteQuestion(): InviteQuestion | null {
  return useSyncExternalStore(
    (listener) => on("invite:question", listener),
    () => current,
    () => null,
  );
}
