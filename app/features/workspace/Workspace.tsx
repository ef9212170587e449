import { useMessageLink } from "~/features/message-links/useMessageLink.client";
import { lazyPart, PART_FAILED } from "~/ui/lazyPart";
import { useState } from "react";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { SkipLink } from "~/ui/SkipLink";
import { messageBox } from "~/ui/message-box";
import { Toast, useToast } from "~/ui/Toast";
import { useTooManyRequests } from "~/features/limits/useTooManyRequests.client";
import { useDialog } from "~/ui/useDialog";
import { useDirect } from "~/features/direct/useDirect.client";
import { useDirectNames } from "~/features/direct/useDirectNames.client";
import { LetBackIn, StartAfresh } from "~/features/direct/LetBackIn";
import { useChannels } from "~/features/channels/useChannels.client";
import { conversationOf, joinProofOf } from "~/conversation/conversation.client";
import { useContacts } from "~/features/contacts/useContacts.client";
import { useDictation } from "~/features/dictation/useDictation.client";
import { useUploads } from "~/features/files/useUploads.client";
import { postFileCarrier } from "~/features/messages/messages.client";
import { useChannelHistory } from "~/features/messages/useChannelHistory.client";
import { useSend } from "~/features/messages/useSend.client";
import { useMessageActions } from "~/features/messages/useMessageActions.client";
import { useMembers } from "~/features/members/useMembers.client";
import { relabelMembers } from "~/features/members/notices";
import { useMembersPanel } from "~/features/members/useMembersPanel.client";
import { SealedSection } from "~/features/sealed/SealedSection";
import { useConversationLines } from "~/features/sealed/useConversationLines";
import { useSealedChannel } from "~/features/sealed/useSealedChannel.client";
import { usePackagePool } from "~/features/sealed/usePackagePool.client";
import { useUnread } from "~/features/unread/useUnread.client";
import { SearchPanel } from "~/features/search/SearchPanel";
import { useSearch } from "~/features/search/useSearch.client";
import { ChatPane } from "~/features/workspace/ChatPane";
import { ComposerModes, whatsappMode } from "~/features/workspace/ComposerModes";
import { useNewsFeed } from "~/features/news/useNewsFeed.client";
import { useNotifications } from "~/features/notifications/useNotifications.client";
import { NotifyOffer } from "~/features/notifications/NotifyOffer";
import { useSettings } from "~/features/settings/useSettings.client";
import { TranslateMenu } from "~/features/translation/TranslateMenu";
import { useTranslation } from "~/features/translation/useTranslation.client";
import { WorldClock } from "~/features/world-clock/WorldClock";
import { sanitizeCities } from "~/features/world-clock/world-clock";
import { AccountFooter } from "~/features/workspace/AccountFooter";
import type { AppConfig } from "~/features/workspace/config";
import { EmptyChat } from "~/features/workspace/EmptyChat";
import { Header } from "~/features/workspace/Header";
import { HeaderMenu } from "~/features/workspace/HeaderMenu";
import { useWorkspaceLive } from "~/features/workspace/useWorkspaceLive.client";
import { useDrawer } from "~/features/workspace/useDrawer.client";
import type { DialogState } from "~/features/workspace/WorkspaceDialogs";
import { composerSend, dialogActions } from "~/features/workspace/actions";
import { WorkspaceSidebar } from "~/features/workspace/WorkspaceSidebar";
import { LazyDialogs } from "~/features/workspace/LazyDialogs";
import { usePlaceView } from "~/features/address/usePlaceView.client";
import { NotAvailable } from "~/features/address/NotAvailable";
import { useStanding } from "~/features/roles/standing.client";

interface Props {
  user: SessionUser;
  config: AppConfig;
  onSignOut: () => void;
  signingOut: boolean;
}

// The people picker loads when it is first opened (it is not part of the first load).
const DirectPicker = lazyPart(() => import("~/features/direct/NewMessageModal").then((m) => m.DirectPicker), {
  whenFailed: "toast",
  close: ({ direct }) => direct.close(),
});

const MISSING_PASSWORD = "Channel password not found. Join the channel again with its password to read it on this device.";

/** The signed-in screen (spec §2.3): header, channel sidebar, chat pane. Wiring only: the features hold their state. */
export function Workspace({ user, config, onSignOut, signingOut }: Props) {
  const { toast, notify, dismiss } = useToast();
  useTooManyRequests(notify);
  const dialogs = useDialog<DialogState>();
  const standing = useStanding(user);
  const drawer = useDrawer();
  const [newsOpen, setNewsOpen] = useState(false);
  const [dictated, setDictated] = useState<{ id: number; text: string } | null>(null);
  const { settings, settingsRef, save: saveSettings } = useSettings(user);
  const channels = useChannels(user, notify);
  const { selected } = channels;
  const direct = useDirect(user, channels.openReady, channels.reload);
  useDirectNames(user, channels.channels, selected, channels.rename);
  const notifications = useNotifications(user, settingsRef);
  const history = useChannelHistory(user, selected, notifications.chime);
  usePackagePool(user, history.messages.length > 0, notify);
  const sender = useSend(user, selected, history, channels.channels);
  const messageActions = useMessageActions(user, selected, history, notify);
  const unread = useUnread(user, channels.channels, selected, history.messages);
  const members = useMembers(selected?.id ?? null, {
    direct: Boolean(selected?.direct),
    sealed: Boolean(selected?.sealed || selected?.direct),
    onDeactivated: (people, deactivated) => relabelMembers(history, people, deactivated),
  });
  const sealed = useSealedChannel(user, selected, joinProofOf, members.members, (text) => notify(text, "error"), history.reload);
  const lines = useConversationLines(members.notices, sealed.returning, sealed.removedByAdmin, selected);
  const membersPanel = useMembersPanel(members.refresh, sealed.refresh);
  const uploads = useUploads(user, selected, {
    limitBytes: config.uploadMaxBytes,
    notify,
    post: postFileCarrier(user),
    onSent: (id, sent) => history.add(id, [sent]),
  });
  const translation = useTranslation(history.messages, settings, saveSettings, (text) => notify(text, "error"));
  const contacts = useContacts(user.id);
  const news = useNewsFeed(newsOpen, config.newsRefreshMs);
  const search = useSearch(user, { channels: channels.channels, messages: history.messages, select: channels.setSelectedId, notify });
  const linked = useMessageLink(channels.channels, notify, search.openAt);
  const place = usePlaceView(channels.channels, selected, drawer.show);
  const dictation = useDictation(
    (text) => setDictated((prev) => ({ id: (prev?.id ?? 0) + 1, text })),
    (message) => notify(message, "error"),
  );
  const { live } = useWorkspaceLive(user, {
    channels: channels.channels,
    selected,
    reloadChannels: async () => {
      const list = await channels.reload();
      // (the open conversation's members, unless the list came back without it: the user left or was removed)
      const gone = selected && list && !list.some((c) => c.id === selected.id);
      await Promise.all([unread.refresh(), gone ? null : members.refresh(), sender.retryAll()]);
      return list;
    },
    history,
    notifications,
    unread,
    refreshMembers: members.refresh,
    removedFrom: channels.removedFrom,
    search: search.live,
  });

  const openContacts = (mode: "manage" | "select") => (dialogs.open({ kind: "contacts", mode }), contacts.load());

  const whatsapp = whatsappMode(contacts, openContacts);
  const send = composerSend(contacts.mode ? whatsapp : null, sender, messageActions);
  const actions = dialogActions({
    dialogs,
    channels,
    direct,
    history,
    messageActions,
    members,
    search,
    saveSettings,
    requestPermission: notifications.requestPermission,
    signOut: onSignOut,
  });

  const composerModes = (
    <ComposerModes
      dictation={dictation}
      whatsapp={contacts.mode}
      recipient={contacts.recipient?.name ?? null}
      onToggleWhatsapp={whatsapp.toggle}
      onChooseContact={() => openContacts("select")}
    />
  );

  return (
    <div className="workspace">
      {selected && <SkipLink />}
      <Header onToggleSidebar={drawer.toggle} sidebarOpen={drawer.open} toggleRef={drawer.toggleRef} unread={unread.total}>
        <SearchPanel {...search.panel} />
        <WorldClock cities={sanitizeCities(settings.worldClockCities)} />
        <HeaderMenu user={user} onDialog={(kind) => dialogs.open({ kind })} onContacts={() => openContacts("manage")} />
      </Header>
      <NotifyOffer userId={user.id} permission={notifications.permission} onTurnOn={notifications.requestPermission} />
      <div className="workspace-body">
        <WorkspaceSidebar
          user={user}
          channels={channels}
          direct={direct}
          unread={unread}
          drawer={drawer}
          openDialog={dialogs.open}
          footer={<AccountFooter username={user.username} onSignOut={() => dialogs.open({ kind: "signOut" })} busy={signingOut} />}
        />
        <main
          className="chat-pane"
          data-live={live ? "true" : "false"}
          data-keys={selected?.sealed ? (sealed.status?.code ? "ready" : "opening") : undefined}
        >
          {selected ? (
            <ChatPane
              user={user}
              channel={selected}
              live={live}
              notice={conversationOf(user, selected).canRead() ? sealed.notice : MISSING_PASSWORD}
              notify={notify}
              header={{
                onClear: () => dialogs.open({ kind: "clear", channel: selected }),
                // (a guest cannot make invites: ADR 0057)
                onShare: standing.role === "guest" ? undefined : () => void channels.share(selected),
                onCopyId: () => void channels.copyId(selected),
                onToggleNews: news.configured ? () => setNewsOpen((o) => !o) : undefined,
                onToggleMembers: membersPanel.toggle,
                onSaveChat: () =>
                  void import("~/features/export/export.client").then(
                    (m) =>
                      m
                        .saveChat(user, selected)
                        .catch((error) => notify(messageOf(error, "The chat could not be saved. Please try again."), "error")),
                    () => notify(PART_FAILED, "error"),
                  ),
                onAddPeople: selected.direct && !selected.oneToOne ? () => direct.openAdd(selected) : undefined,
                onRename: selected.direct && !selected.oneToOne ? () => direct.openRename(selected) : undefined,
                translate: (
                  <TranslateMenu
                    language={settings.translationLanguage}
                    enabled={settings.translationEnabled}
                    busy={translation.busy}
                    notice={translation.notice}
                    available={translation.available}
                    onSave={(language, enabled) => void translation.choose(language, enabled, (text) => notify(text, "error"))}
                  />
                ),
              }}
              history={history}
              openAt={linked ?? search.openAt}
              actions={messageActions}
              onDeleteMessage={(message) => dialogs.open({ kind: "deleteMessage", message })}
              translation={translation}
              unreadAfter={unread.unreadAfter}
              composer={{
                busy: sender.sending,
                error: sender.sendError,
                onSend: send,
                modes: composerModes,
                draftAppend: dictated,
                placeholder: contacts.mode ? "Type a message to send with WhatsApp..." : undefined,
              }}
              outbox={{ pending: sender.outbox, onRetry: () => void sender.retryAll(), onDiscard: sender.discard }}
              uploads={uploads}
              members={{
                list: members.members,
                notices: lines,
                quiet: sealed.returning,
                open: membersPanel.open,
                onRemove: (member) => dialogs.open({ kind: "removeMember", member }),
                onClose: membersPanel.close,
                gone: sealed.partnerGone,
                sealed: selected.sealed && <SealedSection {...sealed} onUpdateKeys={() => void sealed.updateKeys()} />,
                returning:
                  selected.oneToOne &&
                  (sealed.afresh ? (
                    <StartAfresh
                      name={selected.name}
                      why={sealed.afresh}
                      busy={sealed.startingAfresh}
                      onStart={() => void sealed.startAfresh().then(() => messageBox()?.focus())}
                    />
                  ) : (
                    sealed.returning.length > 0 && (
                      <LetBackIn
                        name={selected.name}
                        busy={sealed.lettingIn}
                        onLetIn={() => void sealed.letBackIn().then(() => messageBox()?.focus())}
                      />
                    )
                  )),
              }}
              news={{ open: newsOpen, feed: news, onClose: () => setNewsOpen(false) }}
            />
          ) : place.unavailable ? (
            <NotAvailable />
          ) : (
            <EmptyChat
              hasChannels={Boolean(channels.channels?.length)}
              onCreate={standing.canCreateChannels ? () => dialogs.open({ kind: "create" }) : undefined}
              onJoin={standing.role === "guest" ? undefined : () => dialogs.open({ kind: "join" })}
            />
          )}
        </main>
      </div>
      {toast && <Toast toast={toast} onDismiss={dismiss} />}
      {direct.picker && <DirectPicker direct={direct} />}
      <LazyDialogs
        dialog={dialogs.dialog}
        busy={dialogs.busy}
        error={dialogs.error}
        close={dialogs.close}
        actions={actions}
        settings={settings}
        account={user}
        permission={notifications.permission}
        contacts={contacts}
      />
    </div>
  );
}
