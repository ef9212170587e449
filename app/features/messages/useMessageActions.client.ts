import { useEffect, useRef, useState } from "react";
import { api } from "~/lib/api.client";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import type { Notify } from "~/ui/Toast";
import type { Channel } from "~/conversation/channels/types";
import type { Annotation } from "~/conversation/messages/annotations";
import type { Reaction } from "~/conversation/messages/body";
import type { AnnotationKind } from "~/conversation/messages/types";
import { postEnvelope, type DecryptedMessage } from "~/features/messages/messages.client";
import { moveToDraft } from "~/features/messages/drafts.client";
import { conversationOf } from "~/conversation/conversation.client";
import { expectedPreviewUrl } from "~/conversation/link-previews/link";
import { unionById } from "~/conversation/messages/merge";

interface History {
  annotate: (channelId: string, annotations: Annotation[]) => void;
  remove: (id: string) => void;
  update: (id: string, change: (m: DecryptedMessage) => DecryptedMessage) => void;
}

/** Edit, delete, react, pin and reply (each edit and reaction an encrypted, signed envelope naming its message). */
export function useMessageActions(user: SessionUser, channel: Channel | null, history: History, notify: Notify) {
  const [replyTo, setReplyTo] = useState<DecryptedMessage | null>(null);
  /** Messages this page is deleting (their edit box goes without a word). */
  const deletingHere = useRef(new Set<string>());
  useEffect(() => setReplyTo(null), [channel?.id]);

  async function annotate(target: DecryptedMessage, kind: AnnotationKind, content: { text?: string; emoji?: Reaction; pinned?: boolean }) {
    if (!channel) return false;
    const body =
      kind === "edit"
        ? { text: content.text ?? "", files: [], edits: target.id }
        : kind === "pin"
          ? { text: "", files: [], pins: target.id, pinned: content.pinned === true }
          : { text: "", files: [], reactsTo: target.id, reaction: content.emoji };
    const posted = await postEnvelope(user, channel, body, { kind, targetId: target.id });
    history.annotate(channel.id, [
      {
        id: posted.id,
        kind,
        targetId: target.id,
        senderId: user.id,
        created: posted.created,
        own: true,
        ...content,
        ...(kind === "pin" ? { senderUsername: user.username } : {}),
      },
    ]);
    return true;
  }

  async function edit(message: DecryptedMessage, text: string): Promise<boolean> {
    if (!text.trim() || text === message.text) return true;
    try {
      const edited = await annotate(message, "edit", { text });
      if (edited && channel) previewAfterEdit(message, text, channel);
      return edited;
    } catch (error) {
      notify(messageOf(error, "The message could not be edited. Please try again."), "error");
      return false;
    }
  }

  /** An edit that brings a new link: its preview follows, as a sent message's does (the edit's words decide which is shown). */
  function previewAfterEdit(message: DecryptedMessage, text: string, open: Channel) {
    const url = expectedPreviewUrl(text, window.location.origin);
    if (!url || url === expectedPreviewUrl(message.text, window.location.origin)) return;
    void import("~/features/link-previews/previews.client")
      .then((m) => m.attachLinkPreview(conversationOf(user, open), open, { id: message.id, text, itemKey: message.itemKey }))
      .then((preview) => preview && history.update(message.id, (m) => ({ ...m, previews: unionById(m.previews, [preview]) })));
  }

  /** The message being edited was deleted elsewhere: a changed text goes to the message box, and the user is told. */
  function editLost(message: DecryptedMessage, text: string) {
    // (deleted from this page, its live deletion may come before the request's answer: nothing to say)
    if (deletingHere.current.has(message.id)) return;
    const kept = text.trim() !== "" && text !== message.text;
    if (kept) moveToDraft(message.channelId, text);
    notify(`The message you were editing was deleted.${kept ? " Your text is in the message box." : ""}`);
  }

  async function remove(id: string, failure: string) {
    try {
      await api(`/api/messages/${id}/delete`, {});
      history.remove(id);
    } catch (error) {
      notify(messageOf(error, failure), "error");
    }
  }

  /** Adds a reaction, or takes the user's own reaction with that emoji back. */
  async function react(message: DecryptedMessage, emoji: Reaction) {
    const own = message.reactions?.find((r) => r.emoji === emoji)?.ownId;
    if (own) return remove(own, "The reaction could not be removed. Please try again.");
    try {
      await annotate(message, "reaction", { emoji });
    } catch (error) {
      notify(messageOf(error, "The reaction could not be sent. Please try again."), "error");
    }
  }

  /** Pins a message for everyone in the conversation, or unpins it (any member may do either). */
  async function pin(message: DecryptedMessage, pinned: boolean) {
    try {
      await annotate(message, "pin", { pinned });
    } catch (error) {
      notify(
        messageOf(error, pinned ? "The message could not be pinned. Please try again." : "The message could not be unpinned."),
        "error",
      );
    }
  }

  return {
    pin,
    replyTo,
    setReplyTo,
    edit,
    editLost,
    react,
    deleteMessage: (message: DecryptedMessage) => {
      deletingHere.current.add(message.id);
      return remove(message.id, "The message could not be deleted. Please try again.").finally(() =>
        deletingHere.current.delete(message.id),
      );
    },
  };
}
