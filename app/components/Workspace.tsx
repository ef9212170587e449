import { useCallback, useEffect, useRef, useState } from "react";
import type { Channel, LiveEvent } from "~/chat-types";
import {
  ChatError,
  channelKey,
  clearMessages,
  createChannel,
  createShareLink,
  decryptMessages,
  deleteChannel,
  fetchMessages,
  joinChannel,
  joinWithInvite,
  leaveChannel,
  listChannels,
  sendMessage,
  type DecryptedMessage,
} from "~/chat/chat.client";
import { isAcceptedFile } from "~/chat/attachments";
import {
  attachLinkPreview,
  attachmentUrl,
  previewImageUrl,
  saveAttachment,
  sendFile,
} from "~/chat/files.client";
import { decryptAttachments, decryptPreviews } from "~/chat/decrypt-extras";
import { latestCreated, mergeMessages as mergeOrdered, unionById } from "~/chat/merge";
import { MicrophoneError, useAudioRecorder } from "~/chat/recorder.client";
import { useLiveEvents } from "~/chat/useLiveEvents.client";
import { CreateChannelModal, JoinChannelModal } from "~/components/channels/ChannelForms";
import { Sidebar } from "~/components/channels/Sidebar";
import { ChatHeader } from "~/components/chat/ChatHeader";
import { Composer } from "~/components/chat/Composer";
import { MessageList } from "~/components/chat/MessageList";
import { AccountFooter } from "~/components/shell/AccountFooter";
import { EmptyChat } from "~/components/shell/EmptyChat";
import { Header } from "~/components/shell/Header";
import { ConfirmDialog } from "~/components/ui/Modal";
import { Toast, type ToastState } from "~/components/ui/Toast";
import { NotificationSettingsModal, type PermissionState } from "~/components/settings/NotificationSettingsModal";
import { TranslateMenu } from "~/components/chat/TranslateMenu";
import { api, ApiError } from "~/api.client";
import type { AppConfig } from "~/components/ChatApp";
import { ContactsModal } from "~/components/workspace/ContactsModal";
import { NewsFeed } from "~/components/workspace/NewsFeed";
import { HeaderMenu, WorldClock, WorldClockSettingsModal } from "~/components/workspace/WorldClock";
import type { SessionUser, UserSettings } from "~/session-user";
import { whatsappDeepLink, whatsappWebUrl } from "~/workspace/contacts";
import { loadContacts, removeContact, saveContact, type Contact } from "~/workspace/contacts.client";
import { useDictation } from "~/workspace/useDictation.client";
import { useNewsFeed } from "~/workspace/useNewsFeed.client";
import { sanitizeCities } from "~/workspace/world-clock";
import { exportFileName, formatExport } from "~/workspace/export";
import { shouldNotify } from "~/workspace/notify";
import {
  notificationPermission,
  requestNotificationPermission,
  sendEmailNotification,
  showDesktopNotification,
} from "~/workspace/notifications.client";
import { cachedTranslation, translateTexts, TranslationUnavailable } from "~/workspace/translate.client";
import { playChime } from "~/sound.client";
import { clearPendingInvite, getChannelPassword, getPendingInvite, removeChannelPassword } from "~/storage.client";

const HIGHLIGHT_MS = 6_000;
const PAGE_SIZE = 200;

type ModalState =
  | { kind: "create" }
  | { kind: "join" }
  | { kind: "delete"; channel: Channel }
  | { kind: "leave"; channel: Channel }
  | { kind: "deleteAll" }
  | { kind: "clear"; channel: Channel }
  | { kind: "notifications" }
  | { kind: "worldClock" }
  | { kind: "contacts"; mode: "manage" | "select" }
  | null;

const WHATSAPP_FALLBACK_MS = 1_500;

const messageOf = (error: unknown, fallback: string) => (error instanceof ChatError && error.message ? error.message : fallback);

/** Two copies of one message (live event, send result, catch-up) keep every attachment and preview either has. */
const mergeMessages = (current: readonly DecryptedMessage[], incoming: readonly DecryptedMessage[]) =>
  mergeOrdered(current, incoming, (a, b) => ({
    ...b,
    attachments: unionById(a.attachments, b.attachments),
    previews: unionById(a.previews, b.previews),
  }));

const ORPHAN_AFTER_MS = 60_000;
/** A file message whose upload never completed carries no text and no attachment: it is not shown. */
const isOrphan = (m: DecryptedMessage) =>
  !m.text && m.attachments.length === 0 && Date.now() - new Date(m.created.replace(" ", "T")).getTime() > ORPHAN_AFTER_MS;

interface Props {
  user: SessionUser;
  config: AppConfig;
  onSignOut: () => void;
  signingOut: boolean;
}

/** The signed-in screen (spec §2.3): header, channel sidebar, chat pane. Wiring only; the parts are props-in components. */
export function Workspace({ user, config, onSignOut, signingOut }: Props) {
  const { uploadMaxBytes } = config;
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [channels, setChannels] = useState<Channel[] | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [messages, setMessages] = useState<DecryptedMessage[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());
  const [modal, setModal] = useState<ModalState>(null);
  const [modalBusy, setModalBusy] = useState(false);
  const [modalError, setModalError] = useState<string | null>(null);
  const [toast, setToast] = useState<ToastState | null>(null);
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const [upload, setUpload] = useState<{ name: string; fraction: number } | null>(null);
  const [failedFile, setFailedFile] = useState<{ file: File; error: string; failure: string } | null>(null);
  const recorder = useAudioRecorder();
  const [settings, setSettings] = useState<UserSettings>(user.settings);
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const [permission, setPermission] = useState<PermissionState>("default");
  const [translationVersion, setTranslationVersion] = useState(0);
  const [translationNotice, setTranslationNotice] = useState<string | null>(null);
  const [translateBusy, setTranslateBusy] = useState(false);
  const [showingOriginal, setShowingOriginal] = useState<ReadonlySet<string>>(new Set());
  const channelsRef = useRef<Channel[] | null>(null);
  const [newsOpen, setNewsOpen] = useState(false);
  const news = useNewsFeed(newsOpen, config.newsRefreshMs);
  const [contacts, setContacts] = useState<Contact[] | null>(null);
  const [whatsappMode, setWhatsappMode] = useState(false);
  const [whatsappContact, setWhatsappContact] = useState<Contact | null>(null);
  const [dictated, setDictated] = useState<{ id: number; text: string } | null>(null);
  const dictation = useDictation(
    (text) => setDictated((prev) => ({ id: (prev?.id ?? 0) + 1, text })),
    (message) => notify(message, "error"),
  );

  const selected = channels?.find((c) => c.id === selectedId) ?? null;
  channelsRef.current = channels;
  const selectedRef = useRef<Channel | null>(null);
  selectedRef.current = selected;
  const messagesRef = useRef<DecryptedMessage[]>([]);
  messagesRef.current = messages;
  const generation = useRef(0);

  const notify = useCallback((text: string, kind: ToastState["kind"] = "info") => setToast({ text, kind, at: Date.now() }), []);

  const highlight = useCallback((ids: string[]) => {
    if (ids.length === 0) return;
    playChime();
    setHighlighted((prev) => new Set([...prev, ...ids]));
    setTimeout(() => {
      setHighlighted((prev) => {
        const next = new Set(prev);
        for (const id of ids) next.delete(id);
        return next;
      });
    }, HIGHLIGHT_MS);
  }, []);

  // ---- channels ----
  const reloadChannels = useCallback(async () => {
    try {
      const list = await listChannels();
      setChannels(list);
      return list;
    } catch (error) {
      console.warn("Could not load channels", error);
      setChannels((current) => current ?? []);
      return null;
    }
  }, []);

  useEffect(() => {
    void reloadChannels();
    setPermission(notificationPermission());
  }, [reloadChannels]);

  // Channel keys are derived (PBKDF2, deliberately slow) in the background once the list is known, so
  // opening a channel does not wait for it. Cached per page in chat.client.
  useEffect(() => {
    if (!channels) return;
    let stop = false;
    (async () => {
      for (const channel of channels.slice(0, 30)) {
        if (stop) return;
        await channelKey(channel).catch(() => null);
      }
    })();
    return () => {
      stop = true;
    };
  }, [channels]);

  // A channel that disappears (deleted by its creator, or left elsewhere) is closed.
  useEffect(() => {
    if (channels && selectedId && !channels.some((c) => c.id === selectedId)) {
      setSelectedId(null);
      notify("That channel is no longer available.");
    }
  }, [channels, selectedId, notify]);

  // Invite auto-join, once the channel list has loaded (spec §4).
  const inviteHandled = useRef(false);
  useEffect(() => {
    if (!channels || inviteHandled.current) return;
    inviteHandled.current = true;
    const invite = getPendingInvite();
    if (!invite) return;
    clearPendingInvite();
    if (channels.some((c) => c.id === invite.channelId) && getChannelPassword(invite.channelId)) {
      setSelectedId(invite.channelId);
      return;
    }
    (async () => {
      try {
        const joined = await joinWithInvite(user, invite.channelId, invite.encryptedPassword);
        await reloadChannels();
        setSelectedId(joined.id);
      } catch (error) {
        notify(messageOf(error, "Failed to join channel"), "error");
      }
    })();
  }, [channels, user, reloadChannels, notify]);

  // ---- messages of the selected channel ----
  const loadLatest = useCallback(
    async (channel: Channel) => {
      const gen = generation.current;
      try {
        const page = await fetchMessages(channel.id, { limit: PAGE_SIZE });
        const decrypted = (await decryptMessages(user, channel, page.messages)).filter((m) => !isOrphan(m));
        if (gen !== generation.current) return;
        // Merge, not replace: a live event may have delivered a newer message while this page loaded.
        setMessages((current) => mergeMessages(current, decrypted));
        setHasMore(page.hasMore);
      } catch (error) {
        console.warn("Could not load messages", error);
      }
    },
    [user],
  );

  useEffect(() => {
    generation.current += 1;
    setMessages([]);
    setHasMore(false);
    setSendError(null);
    setFailedFile(null);
    if (selected) void loadLatest(selected);
    // Only a change of channel reloads; list refreshes keep the same channel object id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected?.id, loadLatest]);

  const catchUp = useCallback(async () => {
    const channel = selectedRef.current;
    if (!channel) return;
    const since = latestCreated(messagesRef.current);
    if (!since) return loadLatest(channel);
    const gen = generation.current;
    try {
      const page = await fetchMessages(channel.id, { after: since, limit: 500 });
      const decrypted = await decryptMessages(user, channel, page.messages);
      if (gen !== generation.current) return;
      const known = new Set(messagesRef.current.map((m) => m.id));
      setMessages((current) => mergeMessages(current, decrypted));
      highlight(decrypted.filter((m) => !m.own && !known.has(m.id)).map((m) => m.id));
      if (page.hasMore) void catchUp();
    } catch (error) {
      console.warn("Could not fetch missed messages", error);
    }
  }, [user, loadLatest, highlight]);

  const loadOlder = useCallback(async () => {
    const channel = selectedRef.current;
    const oldest = messagesRef.current[0];
    if (!channel || !oldest || loadingOlder) return;
    setLoadingOlder(true);
    const gen = generation.current;
    try {
      const page = await fetchMessages(channel.id, { before: oldest.created, limit: PAGE_SIZE });
      const decrypted = (await decryptMessages(user, channel, page.messages)).filter((m) => !isOrphan(m));
      if (gen !== generation.current) return;
      setMessages((current) => mergeMessages(current, decrypted));
      setHasMore(page.hasMore);
    } catch (error) {
      console.warn("Could not load older messages", error);
    } finally {
      setLoadingOlder(false);
    }
  }, [user, loadingOlder]);

  /** Desktop and email notifications for an incoming message (spec §4, §9), by the user's triggers. */
  const notifyAbout = useCallback(
    (channel: Channel, message: DecryptedMessage) => {
      const current = settingsRef.current;
      if (!current.desktopNotificationsEnabled && !current.emailNotificationsEnabled) return;
      const decision = shouldNotify({
        text: message.text || message.attachments.map((a) => a.name).join(", ") || "New attachment",
        own: message.own,
        username: user.username,
        notifyOnMention: current.notifyOnMention,
        keywords: current.notifyKeywords,
      });
      if (!decision.notify) return;
      const unfocused = !document.hasFocus();
      if (current.desktopNotificationsEnabled && unfocused) {
        showDesktopNotification(`${message.senderUsername} in #${channel.name}`, message.text || "Sent an attachment");
      }
      if (current.emailNotificationsEnabled && (unfocused || document.hidden)) {
        sendEmailNotification({
          channelName: channel.name,
          senderUsername: message.senderUsername,
          mention: decision.mention,
          text: current.emailIncludeContent ? message.text : null,
        });
      }
    },
    [user.username],
  );

  const updateMessage = useCallback((id: string, change: (m: DecryptedMessage) => DecryptedMessage) => {
    setMessages((current) => current.map((m) => (m.id === id ? change(m) : m)));
  }, []);

  const onLive = useCallback(
    async (event: LiveEvent) => {
      if (event.type === "sync") {
        await reloadChannels();
        await catchUp();
      } else if (event.type === "memberships") {
        await reloadChannels();
      } else if (event.type === "message") {
        const channel = selectedRef.current;
        if (!channel || event.message.channelId !== channel.id) {
          // Another of the user's channels: decrypted only to decide about a notification.
          const other = channelsRef.current?.find((c) => c.id === event.message.channelId);
          const wantsNotice = settingsRef.current.desktopNotificationsEnabled || settingsRef.current.emailNotificationsEnabled;
          if (other && wantsNotice && event.message.senderId !== user.id) {
            const [decrypted] = await decryptMessages(user, other, [event.message]);
            if (decrypted) notifyAbout(other, decrypted);
          }
          return;
        }
        if (messagesRef.current.some((m) => m.id === event.message.id)) return;
        const [decrypted] = await decryptMessages(user, channel, [event.message]);
        if (!decrypted || selectedRef.current?.id !== channel.id) return;
        setMessages((current) => mergeMessages(current, [decrypted]));
        if (!decrypted.own) {
          highlight([decrypted.id]);
          notifyAbout(channel, decrypted);
        }
      } else if (event.type === "message-deleted") {
        setMessages((current) => current.filter((m) => m.id !== event.messageId));
      } else if (event.type === "attachment" || event.type === "preview") {
        const channel = selectedRef.current;
        const messageId = event.type === "attachment" ? event.attachment.messageId : event.preview.messageId;
        const target = messagesRef.current.find((m) => m.id === messageId);
        if (!channel) return;
        // The message itself may still be on its way: fetching what is new brings it with its parts.
        if (!target) return void catchUp();
        const key = await channelKey(channel);
        if (!key) return;
        if (event.type === "attachment") {
          if (target.attachments.some((a) => a.id === event.attachment.id)) return;
          const [attachment] = await decryptAttachments(key, channel.id, target.senderId, [event.attachment]);
          if (attachment) updateMessage(messageId, (m) => ({ ...m, attachments: [...m.attachments.filter((a) => a.id !== attachment.id), attachment] }));
        } else {
          if (target.previews.some((p) => p.id === event.preview.id)) return;
          const [preview] = await decryptPreviews(key, channel.id, [event.preview]);
          if (preview) updateMessage(messageId, (m) => ({ ...m, previews: [...m.previews.filter((p) => p.id !== preview.id), preview] }));
        }
      }
    },
    [user, reloadChannels, catchUp, highlight, updateMessage, notifyAbout],
  );
  const { live } = useLiveEvents(selectedId, (event) => void onLive(event));

  // ---- actions ----
  const closeModal = useCallback(() => {
    if (modalBusy) return;
    setModal(null);
    setModalError(null);
  }, [modalBusy]);

  async function runModal(action: () => Promise<void>, fallback: string) {
    setModalBusy(true);
    setModalError(null);
    try {
      await action();
      setModal(null);
    } catch (error) {
      setModalError(messageOf(error, fallback));
    } finally {
      setModalBusy(false);
    }
  }

  const onCreate = (values: { name: string; password: string }) =>
    runModal(async () => {
      const id = await createChannel(user, values.name, values.password);
      await reloadChannels();
      setSelectedId(id);
    }, "Failed to create channel");

  const onJoin = (values: { channelId: string; password: string }) =>
    runModal(async () => {
      const joined = await joinChannel(user, values.channelId, values.password);
      await reloadChannels();
      setSelectedId(joined.id);
    }, "Failed to join channel");

  const removeFromList = (ids: string[]) => {
    for (const id of ids) removeChannelPassword(id);
    setChannels((current) => current?.filter((c) => !ids.includes(c.id)) ?? current);
    if (selectedId && ids.includes(selectedId)) setSelectedId(null);
  };

  const onDelete = (channel: Channel) =>
    runModal(async () => {
      try {
        await deleteChannel(channel.id);
      } catch {
        throw new ChatError("Failed to delete channel");
      }
      removeFromList([channel.id]);
    }, "Failed to delete channel");

  const onLeave = (channel: Channel) =>
    runModal(async () => {
      try {
        await leaveChannel(channel.id);
      } catch {
        throw new ChatError("Failed to leave channel");
      }
      removeFromList([channel.id]);
    }, "Failed to leave channel");

  const onDeleteAll = () =>
    runModal(async () => {
      const done: string[] = [];
      let failed = 0;
      for (const channel of channels ?? []) {
        try {
          await (channel.createdBy === user.id ? deleteChannel(channel.id) : leaveChannel(channel.id));
          done.push(channel.id);
        } catch {
          failed += 1;
        }
      }
      removeFromList(done);
      await reloadChannels();
      if (failed) throw new ChatError(`${failed} channel(s) could not be removed. Please try again.`);
    }, "Failed to delete channels");

  const onClear = (channel: Channel) =>
    runModal(async () => {
      try {
        await clearMessages(channel.id);
      } catch {
        throw new ChatError("Failed to clear messages");
      }
      if (selectedRef.current?.id === channel.id) setMessages([]);
    }, "Failed to clear messages");

  async function onShare(channel: Channel) {
    let link: string;
    try {
      link = await createShareLink(channel.id);
    } catch (error) {
      return notify(messageOf(error, "Failed to create share link. Please try again."), "error");
    }
    try {
      await navigator.clipboard.writeText(link);
      notify("Invite link copied to the clipboard. Anyone with this link can join the channel.");
    } catch {
      notify(`Copy this invite link: ${link}`);
    }
  }

  async function onCopyId(channel: Channel) {
    try {
      await navigator.clipboard.writeText(channel.id);
      notify("Channel ID copied to the clipboard.");
    } catch {
      notify(`Channel ID: ${channel.id}`);
    }
  }

  /** WhatsApp hand-off: the deep link first; if the page still has focus after 1.5 s, the web URL in a popup. */
  function sendViaWhatsapp(contact: Contact, text: string) {
    const link = document.createElement("a");
    link.href = whatsappDeepLink(contact.phone, text);
    link.rel = "noopener";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => {
      if (document.hasFocus()) window.open(whatsappWebUrl(contact.phone, text), "_blank", "noopener,noreferrer");
    }, WHATSAPP_FALLBACK_MS);
  }

  async function onSend(text: string): Promise<boolean> {
    if (whatsappMode) {
      if (!text.trim()) return false;
      if (!whatsappContact) {
        openContacts("select");
        return false;
      }
      sendViaWhatsapp(whatsappContact, text.trim());
      return true;
    }
    const channel = selectedRef.current;
    if (!channel || sending || !text.trim()) return false;
    setSending(true);
    setSendError(null);
    try {
      const sent = await sendMessage(user, channel, text);
      if (selectedRef.current?.id === channel.id) setMessages((current) => mergeMessages(current, [sent]));
      void attachLinkPreview(channel, sent).then((preview) => {
        if (preview) updateMessage(sent.id, (m) => ({ ...m, previews: m.previews.some((p) => p.id === preview.id) ? m.previews : [...m.previews, preview] }));
      });
      return true;
    } catch (error) {
      console.warn("Sending failed", error);
      setSendError(`${messageOf(error, "Failed to send message.")} Your message was not sent and is still in the box.`);
      return false;
    } finally {
      setSending(false);
    }
  }

  async function uploadFile(file: File, failure: string) {
    const channel = selectedRef.current;
    if (!channel || upload) return;
    setFailedFile(null);
    setUpload({ name: file.name, fraction: 0 });
    try {
      const sent = await sendFile(user, channel, file, {
        limitBytes: uploadMaxBytes,
        failure,
        onProgress: (fraction) => setUpload({ name: file.name, fraction }),
      });
      if (selectedRef.current?.id === channel.id) setMessages((current) => mergeMessages(current, [sent]));
    } catch (error) {
      console.warn("Upload failed", error);
      setFailedFile({ file, failure, error: messageOf(error, failure) });
    } finally {
      setUpload(null);
    }
  }

  function onPickFile(file: File) {
    if (!isAcceptedFile(file.name, file.type)) {
      setFailedFile(null);
      return notify("Only images, .pdf, .txt and .zip files can be sent.", "error");
    }
    void uploadFile(file, "Failed to upload file");
  }

  async function onToggleRecording() {
    if (recorder.recording) {
      const file = await recorder.stop();
      if (file) await uploadFile(file, "Failed to send audio message");
      return;
    }
    try {
      await recorder.start();
    } catch (error) {
      notify(error instanceof MicrophoneError ? error.message : "Failed to access microphone. Please check your permissions.", "error");
    }
  }

  const resolveAttachment = useCallback(
    (a: Parameters<typeof attachmentUrl>[1]) => {
      const channel = selectedRef.current;
      return channel ? attachmentUrl(channel, a) : Promise.reject(new Error("no channel"));
    },
    [],
  );
  const resolvePreviewImage = useCallback(
    (p: Parameters<typeof previewImageUrl>[1]) => {
      const channel = selectedRef.current;
      return channel ? previewImageUrl(channel, p) : Promise.reject(new Error("no channel"));
    },
    [],
  );
  const onDownload = useCallback(
    (a: Parameters<typeof saveAttachment>[1]) => {
      const channel = selectedRef.current;
      if (channel) saveAttachment(channel, a).catch(() => notify("The file could not be downloaded.", "error"));
    },
    [notify],
  );

  // ---- translation (spec §4): incoming messages only, when enabled ----
  const translating = settings.translationEnabled ? settings.translationLanguage : null;
  useEffect(() => {
    if (!translating) return;
    const texts = messages.filter((m) => !m.own && m.text && cachedTranslation(translating, m.text) === undefined).map((m) => m.text);
    if (texts.length === 0) return;
    let live = true;
    translateTexts(translating, texts).then(
      () => live && setTranslationVersion((v) => v + 1),
      (error) => live && setTranslationNotice(error instanceof TranslationUnavailable ? error.message : null),
    );
    return () => {
      live = false;
    };
  }, [messages, translating]);

  const translationOf = useCallback(
    (m: DecryptedMessage) => (translating ? cachedTranslation(translating, m.text) : undefined),
    // translationVersion makes the list re-read the cache when new translations arrive.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [translating, translationVersion],
  );

  async function saveSettings(update: Partial<UserSettings>): Promise<boolean> {
    try {
      const { settings: saved } = await api<{ settings: UserSettings }>("/api/settings", update);
      setSettings(saved);
      return true;
    } catch (error) {
      console.warn("Saving settings failed", error);
      return false;
    }
  }

  async function onSaveTranslation(language: string, enabled: boolean) {
    setTranslateBusy(true);
    setTranslationNotice(null);
    if (!(await saveSettings({ translationLanguage: language, translationEnabled: enabled }))) {
      notify("Failed to save settings. Please try again.", "error");
    }
    setTranslateBusy(false);
  }

  const onSaveNotifications = (values: Partial<UserSettings>) =>
    runModal(async () => {
      if (!(await saveSettings(values))) throw new ChatError("Failed to save settings. Please try again.");
    }, "Failed to save settings. Please try again.");

  function onSaveChat(channel: Channel) {
    const now = new Date();
    const text = formatExport(
      channel.name,
      messages.map((m) => ({ created: m.created, sender: m.senderUsername, text: m.text, attachments: m.attachments.map((a) => a.name) })),
      now,
    );
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = exportFileName(channel.name, now);
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  function openContacts(mode: "manage" | "select") {
    setModal({ kind: "contacts", mode });
    setModalError(null);
    loadContacts(user.id).then(setContacts, (error) => {
      console.warn("Contacts could not be loaded", error);
      setContacts([]);
      setModalError(error instanceof Error && error.message.startsWith("Encryption keys") ? error.message : "Contacts could not be loaded.");
    });
  }

  async function onSaveContact(contact: { id?: string; name: string; phone: string }): Promise<boolean> {
    setModalBusy(true);
    setModalError(null);
    try {
      const saved = await saveContact(user.id, contact);
      setContacts(await loadContacts(user.id));
      if (whatsappContact?.id === saved.id) setWhatsappContact(saved);
      return true;
    } catch (error) {
      console.warn("Saving a contact failed", error);
      setModalError("Failed to save contact. Please try again.");
      return false;
    } finally {
      setModalBusy(false);
    }
  }

  async function onDeleteContact(contact: Contact): Promise<boolean> {
    setModalBusy(true);
    setModalError(null);
    try {
      await removeContact(contact.id);
      setContacts((current) => current?.filter((c) => c.id !== contact.id) ?? null);
      if (whatsappContact?.id === contact.id) setWhatsappContact(null);
      return true;
    } catch (error) {
      console.warn("Deleting a contact failed", error);
      setModalError("Failed to delete contact. Please try again.");
      return false;
    } finally {
      setModalBusy(false);
    }
  }

  function onToggleWhatsapp() {
    if (whatsappMode) return setWhatsappMode(false);
    setWhatsappMode(true);
    if (!whatsappContact) openContacts("select");
  }

  const onSaveWorldClock = (cities: string[]) =>
    runModal(async () => {
      if (!(await saveSettings({ worldClockCities: cities }))) throw new ChatError("Failed to save settings. Please try again.");
    }, "Failed to save settings. Please try again.");

  const composerModes = (
    <>
      <button type="button" className="btn btn-small" aria-pressed={dictation.listening} onClick={dictation.toggle}>
        {dictation.listening ? "Stop dictation" : "Dictation"}
      </button>
      <button type="button" className="btn btn-small" aria-pressed={whatsappMode} onClick={onToggleWhatsapp}>
        WhatsApp mode
      </button>
      {whatsappMode && (
        <button type="button" className="btn btn-small" onClick={() => openContacts("select")}>
          {whatsappContact ? `To: ${whatsappContact.name} (change)` : "Choose contact"}
        </button>
      )}
    </>
  );

  const missingPassword = selected && !getChannelPassword(selected.id);

  return (
    <div className="workspace">
      <Header onToggleSidebar={() => setSidebarOpen((o) => !o)}>
        <WorldClock cities={sanitizeCities(settings.worldClockCities)} />
        <HeaderMenu onSetWorldClock={() => setModal({ kind: "worldClock" })} onContacts={() => openContacts("manage")} />
      </Header>
      <div className="workspace-body">
        <Sidebar
          open={sidebarOpen}
          channels={channels}
          selectedId={selectedId}
          userId={user.id}
          onSelect={(c) => {
            setSelectedId(c.id);
            setSidebarOpen(false);
          }}
          onCreate={() => setModal({ kind: "create" })}
          onJoin={() => setModal({ kind: "join" })}
          onDelete={(channel) => setModal({ kind: "delete", channel })}
          onLeave={(channel) => setModal({ kind: "leave", channel })}
          onDeleteAll={() => setModal({ kind: "deleteAll" })}
          footer={<AccountFooter username={user.username} onSignOut={onSignOut} busy={signingOut} />}
        />
        <main className="chat-pane" data-live={live ? "true" : "false"}>
          {selected ? (
            <div className="chat-area">
              <div className="chat-main">
              <ChatHeader
                live={live}
                channel={selected}
                isCreator={selected.createdBy === user.id}
                hasMessages={messages.length > 0}
                onClear={() => setModal({ kind: "clear", channel: selected })}
                onShare={() => void onShare(selected)}
                onCopyId={() => void onCopyId(selected)}
                onNotifications={() => setModal({ kind: "notifications" })}
                newsOpen={newsOpen}
                onToggleNews={() => setNewsOpen((o) => !o)}
                onSaveChat={() => onSaveChat(selected)}
                translate={
                  <TranslateMenu
                    language={settings.translationLanguage}
                    enabled={settings.translationEnabled}
                    busy={translateBusy}
                    notice={translationNotice}
                    onSave={(language, enabled) => void onSaveTranslation(language, enabled)}
                  />
                }
              />
              <MessageList
                messages={messages}
                highlighted={highlighted}
                hasMore={hasMore}
                loadingOlder={loadingOlder}
                onLoadOlder={() => void loadOlder()}
                notice={missingPassword ? "Channel password not found. Join the channel again with its password to read it on this device." : null}
                translationOf={translationOf}
                showingOriginal={showingOriginal}
                onToggleOriginal={(id) =>
                  setShowingOriginal((prev) => {
                    const next = new Set(prev);
                    if (!next.delete(id)) next.add(id);
                    return next;
                  })
                }
                resolveAttachment={resolveAttachment}
                resolvePreviewImage={resolvePreviewImage}
                onDownload={onDownload}
              />
              <Composer
                busy={sending}
                error={sendError}
                onSend={onSend}
                upload={upload}
                failedFile={failedFile ? { name: failedFile.file.name, error: failedFile.error } : null}
                onPickFile={onPickFile}
                onRetryFile={() => failedFile && void uploadFile(failedFile.file, failedFile.failure)}
                onDiscardFile={() => setFailedFile(null)}
                recording={recorder.recording ? { elapsedMs: recorder.elapsedMs } : null}
                onToggleRecording={() => void onToggleRecording()}
                modes={composerModes}
                draftAppend={dictated}
                placeholder={whatsappMode ? "Type a message to send with WhatsApp..." : undefined}
              />
              </div>
              {newsOpen && (
                <NewsFeed
                  items={news.items}
                  configured={news.configured}
                  loading={news.loading}
                  failed={news.failed}
                  highlighted={news.highlighted}
                  onClose={() => setNewsOpen(false)}
                />
              )}
            </div>
          ) : (
            <EmptyChat />
          )}
        </main>
      </div>
      {toast && <Toast toast={toast} onDismiss={() => setToast(null)} />}
      {modal?.kind === "create" && <CreateChannelModal busy={modalBusy} error={modalError} onSubmit={onCreate} onClose={closeModal} />}
      {modal?.kind === "join" && <JoinChannelModal busy={modalBusy} error={modalError} onSubmit={onJoin} onClose={closeModal} />}
      {modal?.kind === "delete" && (
        <ConfirmDialog
          title="Delete Channel"
          message={`Delete "${modal.channel.name}" for everyone? All its messages will be removed. This cannot be undone.`}
          confirmLabel="Delete"
          busy={modalBusy}
          error={modalError}
          onConfirm={() => void onDelete(modal.channel)}
          onClose={closeModal}
        />
      )}
      {modal?.kind === "leave" && (
        <ConfirmDialog
          title="Leave Channel"
          message={`Leave "${modal.channel.name}"? You can join again with the channel ID and password.`}
          confirmLabel="Leave"
          busy={modalBusy}
          error={modalError}
          onConfirm={() => void onLeave(modal.channel)}
          onClose={closeModal}
        />
      )}
      {modal?.kind === "deleteAll" && (
        <ConfirmDialog
          title="Delete All Channels"
          message="Channels you created will be deleted for everyone; channels you joined will be left. This cannot be undone."
          confirmLabel="Delete All"
          busy={modalBusy}
          error={modalError}
          onConfirm={() => void onDeleteAll()}
          onClose={closeModal}
        />
      )}
      {modal?.kind === "notifications" && (
        <NotificationSettingsModal
          settings={settings}
          account={user}
          permission={permission}
          busy={modalBusy}
          error={modalError}
          onRequestPermission={() => void requestNotificationPermission().then(setPermission)}
          onSave={(values) => void onSaveNotifications(values)}
          onClose={closeModal}
        />
      )}
      {modal?.kind === "worldClock" && (
        <WorldClockSettingsModal
          cities={sanitizeCities(settings.worldClockCities)}
          busy={modalBusy}
          error={modalError}
          onSave={(cities) => void onSaveWorldClock(cities)}
          onClose={closeModal}
        />
      )}
      {modal?.kind === "contacts" && (
        <ContactsModal
          mode={modal.mode}
          contacts={contacts}
          selectedId={whatsappContact?.id ?? null}
          error={modalError}
          busy={modalBusy}
          onSave={onSaveContact}
          onDelete={onDeleteContact}
          onSelect={(contact) => {
            setWhatsappContact(contact);
            setWhatsappMode(true);
            closeModal();
          }}
          onClose={closeModal}
        />
      )}
      {modal?.kind === "clear" && (
        <ConfirmDialog
          title="Clear All Messages"
          message={`Delete every message in "${modal.channel.name}" for everyone? This cannot be undone.`}
          confirmLabel="Clear Messages"
          busy={modalBusy}
          error={modalError}
          onConfirm={() => void onClear(modal.channel)}
          onClose={closeModal}
        />
      )}
    </div>
  );
}
