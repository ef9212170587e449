import { useCallback, useRef, useState } from "react";
import { RetryId } from "~/lib/retry-id";
import { messageOf } from "~/lib/errors";
import { refusalOf } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { addPeople, startDirect } from "~/features/direct/direct.client";
import type { Person } from "~/features/direct/types";
import { rememberName } from "~/features/direct/names.client";
import { rememberAsked } from "~/conversation/mls/asked.client";
import { renameGroup } from "~/features/direct/useDirectNames.client";
import { conversationLeft, conversationOf } from "~/conversation/conversation.client";

type Picker = { kind: "new" } | { kind: "add"; channel: Channel } | { kind: "rename"; channel: Channel };

/**
 * "New message", "Add people" and "Rename conversation": the dialog that is open, and what its choice
 * does. A new conversation is opened once the page has made it ready (its MLS group made by this
 * device); a one-to-one the two already have is opened as it is. A change of a conversation's
 * participant list is committed to its group before the server is told.
 */
export function useDirect(
  user: SessionUser,
  open: (id: string, how: "created" | "joined", participants?: readonly string[]) => Promise<void>,
  reload: () => Promise<unknown>,
) {
  const userId = user.id;
  const changeParticipants = useCallback(
    (channel: Channel, change: { add?: readonly string[]; leave?: boolean }) => conversationOf(user, channel).changeParticipants(change),
    [user],
  );
  const [picker, setPicker] = useState<Picker | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** A start the server may have taken without the page hearing so: whom it asked, and its id. */
  const unanswered = useRef(new RetryId());

  const show = useCallback((next: Picker | null) => {
    setPicker(next);
    setError(null);
  }, []);

  const choose = useCallback(
    async (people: Person[], name: string) => {
      if (!picker || picker.kind === "rename") return;
      setBusy(true);
      setError(null);
      try {
        const ids = people.map((p) => p.id);
        if (picker.kind === "add") {
          await changeParticipants(picker.channel, { add: ids });
          await addPeople(picker.channel.id, ids);
          await reload();
        } else {
          // (the same people asked again after a start that got no answer: the same id)
          const started = await startDirect(ids, unanswered.current.for([...ids].sort().join(",")));
          unanswered.current.answered();
          // The name is sealed inside the conversation once it is open here (useDirectNames).
          if (name && !started.existing && ids.length > 1) await rememberName(userId, started.id, name);
          // whom it asks, for "Waiting for bob and carol to accept your request" (sealed/asked.client)
          if (!started.existing && ids.length > 1)
            await rememberAsked(
              userId,
              started.id,
              people.map((p) => p.username),
            );
          await open(started.id, started.existing ? "joined" : "created", ids);
        }
        setPicker(null);
      } catch (failure) {
        setError(
          refusalOf(
            failure,
            picker.kind === "add"
              ? "The people could not be added. Please try again."
              : "The conversation could not be started. Please try again.",
          ),
        );
      } finally {
        setBusy(false);
      }
    },
    [picker, open, reload, changeParticipants, userId],
  );

  /** "Rename conversation": the new name sealed in the group; every participant's list reloads (the server tells them). */
  const rename = useCallback(
    async (name: string) => {
      if (picker?.kind !== "rename") return;
      setBusy(true);
      setError(null);
      try {
        await renameGroup(user, picker.channel, name);
        await reload();
        setPicker(null);
      } catch (failure) {
        setError(messageOf(failure, "The conversation could not be renamed. Please try again."));
      } finally {
        setBusy(false);
      }
    },
    [picker, user, reload],
  );

  return {
    picker,
    busy,
    error,
    openNew: () => show({ kind: "new" }),
    openAdd: (channel: Channel) => show({ kind: "add", channel }),
    openRename: (channel: Channel) => show({ kind: "rename", channel }),
    rename,
    close: () => show(null),
    choose,
    /**
     * Leaving (or deleting) a conversation with `remove`: a direct one's list inside its group is changed
     * first (best effort), and the page forgets its running state after.
     */
    leave: async (channel: Channel, remove: () => Promise<void>) => {
      if (!channel.direct) return remove();
      await changeParticipants(channel, { leave: true }).catch((error) =>
        console.warn("The conversation's list could not be changed", error),
      );
      await remove();
      conversationLeft(userId, channel.id);
    },
  };
}
