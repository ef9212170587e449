import { useCallback, useRef, type MutableRefObject } from "react";
import type { Channel } from "~/conversation/channels/types";
import type { SessionUser } from "~/lib/session-user";
import type { Annotation } from "~/conversation/messages/annotations";
import { isOrphan } from "~/features/messages/history-parts.client";
import { fetchMessages, type DecryptedMessage } from "~/features/messages/messages.client";
import { decryptRecords } from "~/conversation/messages/open.client";
import { hasReplies, summariesArrived } from "~/features/threads/summaries.client";
import { LATEST_PAGE_SIZE } from "~/features/messages/latest-prefetch.client";
import { afterNextFrame, newestFirst } from "~/features/messages/first-page";

export interface AroundPage {
  messages: DecryptedMessage[];
  annotations: Annotation[];
  hasMore: boolean;
  hasNewer: boolean;
}

/**
 * The page around a message not loaded (a jump to it): one request wherever it is in history, verified
 * and decrypted, then handed to `show` unless another page was asked for meanwhile (`generation`). A
 * second call for the same message while the first is on its way waits for that one.
 */
export function useLoadAround(
  user: SessionUser,
  channelRef: MutableRefObject<Channel | null>,
  generation: MutableRefObject<number>,
  /** Shows a page (`first`: in place of what was shown; else added to it). */
  show: (open: Channel, page: AroundPage, first: boolean) => void,
) {
  const around = useRef<{ channelId: string; id: string; done: Promise<void> } | null>(null);
  return useCallback(
    (id: string): Promise<void> => {
      const open = channelRef.current;
      if (!open) return Promise.resolve();
      if (around.current?.channelId === open.id && around.current.id === id) return around.current.done;
      const gen = ++generation.current;
      const done = (async () => {
        const result = await fetchMessages(open.id, { around: id, limit: LATEST_PAGE_SIZE, profiles: true });
        summariesArrived(result.threads ?? [], user.id);
        // the messages around it first (first-page.ts), the rest of the page once they are drawn
        const split = newestFirst(result.messages, undefined, id);
        const part = async (records: typeof result.messages, first: boolean) => {
          const { messages, annotations } = await decryptRecords(user, open, records, undefined, { isThreadRoot: hasReplies });
          if (gen !== generation.current) return false;
          const pending = first ? split : null;
          show(
            open,
            {
              messages: messages.filter((m) => !isOrphan(m)),
              annotations,
              hasMore: result.hasMore || Boolean(pending?.older),
              hasNewer: Boolean(result.hasNewer) || Boolean(pending?.newer),
            },
            first,
          );
          return true;
        };
        if (!(await part(split?.head ?? result.messages, true)) || !split) return;
        // the rest waits for the jump: a frame for the list to mount the message, one for the jump to
        // scroll to it and highlight it (ChatPane, useOpenAt), and one to draw that
        for (let frame = 0; frame < 3; frame++) await afterNextFrame();
        if (gen === generation.current) await part(split.rest, false);
      })();
      const entry = { channelId: open.id, id, done };
      around.current = entry;
      const settle = () => {
        if (around.current === entry) around.current = null;
      };
      done.then(settle, settle);
      return done;
    },
    [user, channelRef, generation, show],
  );
}
