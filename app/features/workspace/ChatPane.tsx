import { copyMessageLink } from "~/features/message-links/useMessageLink.client";
import { lazyPart } from "~/ui/lazyPart";
import { useMemo, useState, type ReactNode } from "react";
import { useThreadPlace } from "~/features/threads/useThreadPlace.client";
import { useBackCloses } from "~/ui/useBackCloses.client";
import { TypingIndicator } from "~/features/typing/TypingIndicator";
import { typing } from "~/features/typing/typing.client";
import type { SessionUser } from "~/lib/session-user";
import { ToastDock, type Notify } from "~/ui/Toast";
import type { DecryptedAttachment } from "~/conversation/files/decrypt";
import { narrowNow } from "~/ui/useNarrow.client";
import { ChatHeader } from "~/features/channels/ChatHeader";
import { CallBar } from "~/features/calls/CallBar";
import { CallButton } from "~/features/calls/CallButton";
import { callLinesAmong, useCallRecords } from "~/features/calls/useCallRecords.client";
import type { Channel } from "~/conversation/channels/types";
import { conversationOf } from "~/conversation/conversation.client";
import { attachmentUrl, saveAttachment } from "~/features/files/files.client";
import type { useUploads } from "~/features/files/useUploads.client";
import { SendFileDialog } from "~/features/files/SendFileDialog";
import { KeyChangeNotice } from "~/features/key-pins/KeyChangeNotice";
import type { ChannelMember, MemberNotice } from "~/features/members/types";
import { memberNames } from "~/features/members/notices";
import { Composer } from "~/features/messages/Composer";
import { MessageList } from "~/features/messages/MessageList";
import { revealMessage } from "~/features/messages/reveal";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import type { useChannelHistory } from "~/features/messages/useChannelHistory.client";
import type { useMessageActions } from "~/features/messages/useMessageActions.client";
import { EmptyChannel } from "~/features/workspace/EmptyChat";
import { Outbox } from "~/features/messages/Outbox";
import { AwaitingAcceptance } from "~/features/requests/AwaitingAcceptance";
import { unreachableText } from "~/conversation/mls/words";
import type { PendingMessage } from "~/features/messages/useSend.client";
import type { useNewsFeed } from "~/features/news/useNewsFeed.client";
import type { useTranslation } from "~/features/translation/useTranslation.client";
import { rendered, useOpenAt } from "~/features/search/useOpenAt.client";
import type { OpenAt } from "~/features/search/useSearch.client";

// The side panels load when first opened: none of them is part of the first load.
const ThreadPanel = lazyPart(() => import("~/features/threads/ThreadPanel").then((m) => m.ThreadPanel));
const PinnedPanel = lazyPart(() => import("~/features/pinned/PinnedPanel").then((m) => m.PinnedPanel));
const MembersPanel = lazyPart(() => import("~/features/members/MembersPanel").then((m) => m.MembersPanel));
const NewsFeed = lazyPart(() => import("~/features/news/NewsFeed").then((m) => m.NewsFeed));

interface Props {
  user: SessionUser;
  channel: Channel;
  live: boolean;
  notice: string | null;
  notify: Notify;
  header: Omit<Parameters<typeof ChatHeader>[0], "live" | "channel" | "isCreator" | "hasMessages" | "onTogglePinned" | "call">;
  history: ReturnType<typeof useChannelHistory>;
  /** A search result to open the channel at. */
  openAt?: OpenAt | null;
  actions: ReturnType<typeof useMessageActions>;
  onDeleteMessage: (m: DecryptedMessage) => void;
  translation: ReturnType<typeof useTranslation>;
  unreadAfter: string | null;
  composer: {
    busy: boolean;
    error: string | null;
    onSend: (text: string) => Promise<boolean>;
    modes: ReactNode;
    draftAppend: { id: number; text: string } | null;
    placeholder?: string;
  };
  outbox: { pending: PendingMessage[]; onRetry: () => void; onDiscard: (clientId: string) => void };
  uploads: ReturnType<typeof useUploads<DecryptedMessage>>;
  members: {
    list: ChannelMember[];
    notices: MemberNotice[];
    open: boolean;
    onRemove: (m: ChannelMember) => void;
    onClose: () => void;
    sealed?: ReactNode;
    /** A one-to-one's other person back after leaving, to be let in again (ADR 0098), typing `quiet`; or gone, not back yet. */
    returning?: ReactNode;
    quiet?: readonly string[];
    gone?: boolean;
  };
  news: { open: boolean; feed: ReturnType<typeof useNewsFeed>; onClose: () => void };
}

/** The open channel: its header, messages, composer, and the Members and News Feed panels. */
export function ChatPane({
  user,
  channel,
  live,
  notice,
  notify,
  header,
  history,
  actions,
  translation,
  composer,
  outbox,
  uploads,
  members,
  news,
  ...props
}: Props) {
  const isCreator = channel.createdBy === user.id;
  const [pinnedOpen, setPinnedOpen] = useState(false);
  const thread = useThreadPlace(channel.id);
  const threadRoot = thread.root;
  const pins = JSON.stringify(history.messages.flatMap((m) => (m.pinnedBy ? [m.id, m.pinnedBy, m.text] : []))); // (an edit too)
  const jumpTo = async (id: string) => {
    if (!history.find(id)) await history.loadAround(id).catch(() => undefined);
    // (a conversation's first frame may not hold it yet, and a long list mounts only what is in view: MessageList)
    revealMessage(id);
    await rendered(`message-${id}`);
    const target = document.getElementById(`message-${id}`);
    if (!target) return notify("The original message is no longer available.");
    target.scrollIntoView({ block: "center" });
    target.classList.add("highlight");
    setTimeout(() => target.classList.remove("highlight"), 2_000);
  };
  useOpenAt(props.openAt, channel.id, history, jumpTo);
  // (a phone's Back closes a panel that covers the conversation)
  useBackCloses(members.open, members.onClose);
  useBackCloses(pinnedOpen, () => setPinnedOpen(false));
  useBackCloses(news.open, news.onClose);
  const files = {
    resolve: (a: DecryptedAttachment) => attachmentUrl(conversationOf(user, channel), a),
    download: (a: DecryptedAttachment) =>
      void saveAttachment(conversationOf(user, channel), a).catch(() => notify("The file could not be downloaded.", "error")),
  };
  const calls = useCallRecords(channel.id, user.id);
  const events = useMemo(
    () => [...members.notices, ...callLinesAmong(calls, history.messages, history.hasMore)],
    [members.notices, calls, history.messages, history.hasMore],
  );
  return (
    <div className="chat-area">
      <div className="chat-main">
        <ChatHeader
          {...header}
          live={live}
          channel={channel}
          isCreator={isCreator}
          hasMessages={history.messages.length > 0}
          onTogglePinned={() => setPinnedOpen((o) => !o)}
          // (no call with someone deactivated or gone: nothing here reaches them)
          call={unreachableText(channel) ? undefined : <CallButton user={user} channel={channel} />}
        />
        <CallBar user={user} channel={channel} />
        <KeyChangeNotice user={user} channelId={channel.id} memberIds={members.list.map((m) => m.userId)} onReadAgain={history.reload} />
        <MessageList
          channelId={channel.id}
          messages={history.messages}
          username={user.username}
          highlighted={history.highlighted}
          hasMore={history.hasMore}
          loadingOlder={history.loadingOlder}
          onLoadOlder={() => void history.loadOlder()}
          hasNewer={history.hasNewer}
          onLoadNewer={() => void history.loadNewer()}
          onJumpToLatest={history.reload}
          notice={notice}
          events={events}
          // (not "No messages yet" where the notice says some are there, unreadable here)
          // (nor where a call's record is all it holds)
          empty={
            history.loaded &&
            !notice &&
            calls.length === 0 && <EmptyChannel channelId={channel.id} onShare={channel.direct ? undefined : header.onShare} />
          }
          unreadAfter={props.unreadAfter}
          translationOf={translation.translationOf}
          showingOriginal={translation.showingOriginal}
          translationLang={translation.lang}
          onToggleOriginal={translation.toggleOriginal}
          resolveAttachment={files.resolve}
          resolvePreviewImage={(p) =>
            import("~/features/link-previews/previews.client").then((m) => m.previewImageUrl(conversationOf(user, channel), channel.id, p))
          }
          onDownload={files.download}
          onReply={actions.setReplyTo}
          onEdit={actions.edit}
          onEditLost={actions.editLost}
          onDelete={props.onDeleteMessage}
          onReact={(m, emoji) => void actions.react(m, emoji)}
          onJumpTo={(id) => void jumpTo(id)}
          onPin={(m, pinned) => void actions.pin(m, pinned)}
          onOpenThread={thread.open}
          onCopyLink={(m) => void copyMessageLink({ channelId: m.channelId, messageId: m.id }, notify)}
        />
        <TypingIndicator user={user} channel={channel} nameOf={memberNames(members.list, members.quiet)} />
        <AwaitingAcceptance channel={channel} userId={user.id} memberIds={members.list.map((m) => m.userId)} gone={members.gone} />
        {members.returning}
        <Outbox {...outbox} />
        {uploads.pendingFile && (
          // beside the composer, not in its form: the dialog has a form of its own
          <SendFileDialog
            // (each file of several its own dialog: caption and preview start afresh)
            key={`${uploads.pendingFile.name}:${uploads.pendingMore}`}
            file={uploads.pendingFile}
            more={uploads.pendingMore}
            onSend={uploads.sendPending}
            onCancel={uploads.cancelPending}
          />
        )}
        <ToastDock />
        {unreachableText(channel) ? (
          <p className="request-waiting" role="status">
            {unreachableText(channel)}
          </p>
        ) : (
          <Composer
            {...composer}
            // each conversation its own box: its draft, its reply, its mention suggestions
            key={channel.id}
            conversationId={channel.id}
            // sending from a window back in history goes back to the latest first (where the message shows)
            onSend={(text) => {
              if (history.hasNewer) history.reload();
              return composer.onSend(text);
            }}
            upload={uploads.upload}
            failedFile={uploads.failedFile}
            onPickFiles={uploads.pickFiles}
            accept={uploads.accept}
            pendingFile={uploads.pendingFile}
            onRetryFile={uploads.retry}
            onDiscardFile={uploads.discard}
            recording={uploads.recording}
            onToggleRecording={uploads.toggleRecording}
            replyTo={
              actions.replyTo
                ? {
                    id: actions.replyTo.id,
                    sender: actions.replyTo.own ? "yourself" : actions.replyTo.senderUsername,
                    text: actions.replyTo.text || "Attachment",
                  }
                : null
            }
            onCancelReply={() => actions.setReplyTo(null)}
            members={members.list.filter((m) => m.userId !== user.id).map((m) => m.username)}
            onTyping={() => void typing(user, channel)}
          />
        )}
      </div>
      {members.open && (
        <MembersPanel
          members={members.list}
          userId={user.id}
          // Nobody removes someone else from a direct conversation.
          isCreator={isCreator && !channel.direct}
          onRemove={members.onRemove}
          onClose={members.onClose}
          extra={members.sealed}
          direct={channel.direct}
          channel={channel.direct ? undefined : channel}
        />
      )}
      {threadRoot && (
        <ThreadPanel
          user={user}
          channel={channel}
          rootId={threadRoot}
          notify={notify}
          onSent={(reply) => history.add(channel.id, [reply])}
          listed={history.messages.find((m) => m.id === threadRoot)}
          files={files}
          // (on a phone the thread covers the conversation: its Back is a step back, as the system's is)
          onClose={thread.close}
        />
      )}
      {pinnedOpen && (
        <PinnedPanel
          user={user}
          channel={channel}
          pins={pins}
          // (on a phone the panel covers the conversation: it closes to show the message)
          onJumpTo={(id) => void (narrowNow() && setPinnedOpen(false), jumpTo(id))}
          onClose={() => setPinnedOpen(false)}
        />
      )}
      {news.open && (
        <NewsFeed
          items={news.feed.items}
          configured={news.feed.configured}
          loading={news.feed.loading}
          failed={news.feed.failed}
          highlighted={news.feed.highlighted}
          onClose={news.onClose}
        />
      )}
    </div>
  );
}
