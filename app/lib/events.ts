/**
 * The page's one event hub (ADR 0078): every signal one part of the page sends another, named and typed
 * here, with who emits it and who listens. Features emit and follow these through `emit` and `on` and
 * keep no listener set of their own (tests/unit/event-hub.test.ts checks). A payload names a feature's
 * type only by a type import (.dependency-cruiser.cjs allows this file that, and nothing more).
 */
import type { DecryptedMessage } from "~/conversation/messages/decrypted";
import type { RetentionPolicy } from "~/features/retention/retention";

export type Events = {
  // --- the session (app/lib/api.client.ts emits)
  /** The server refused the session (signed out elsewhere, expired): the reason. ChatApp signs out. */
  "session:ended": string;
  /** A request renewed or changed the session's token. The Devices and Account activity sections read again. */
  "session:changed": void;
  /** Signing out has begun on this page (auth.client's signOut; its keys go first). useSend stops sending the outbox; useLiveEvents closes the stream. */
  "session:signing-out": void;
  /** The server said "too many requests" (429): its message. useTooManyRequests shows it. */
  "requests:too-many": string;
  /** The server refused a request (403): its path. The admin console reads the user's role again. */
  "requests:refused": string;
  /** The server took a change (a request other than GET answered 2xx): its path. The console's audit log reads again. */
  "requests:changed-something": string;

  // --- the live stream's news (workspace/useWorkspaceLive emits)
  /** A typing event of a conversation (typing.client's typingArrived). TypingIndicator checks and shows it. */
  "typing:arrived": { channelId: string; userId: string; data: string };
  /** A member's message arrived in a conversation (typing.client's typingEnded): their "is typing…" goes. TypingIndicator drops them. */
  "typing:ended": { channelId: string; userId: string };
  /** A conversation's member list changed (useWorkspaceLive, through useSend's membersChanged). useSend retries held messages. */
  "members:changed": void;
  /** The user's memberships or requests changed (requests' requestsChanged). useRequests reads the requests again. */
  "requests:changed": void;
  /** A device asks for approval or a request was answered (device-link's deviceLinksChanged). DeviceApproval reads again. */
  "device-links:changed": void;
  /** A call event, by conversation (calls/ring.client's callArrived). useCallStatus asks for the call's state again. */
  "call:event": string;
  /** A call ended and its record was written, by conversation (callArrived). useCallRecords reads the records again. */
  "call:ended": string;
  /** An administrator deactivated this user (useWorkspaceLive, the live stream's member-deactivated). A call they were in says they were removed (useWhoLeft). */
  "member:deactivated": string;

  // --- calls (calls/*.client.ts emit; their hooks follow)
  /** The page's call started or ended (calls/store.client). useActiveCall: the call button, bar and dock. */
  "call:changed": void;
  /** A direct call rings or stopped ringing (calls/ring.client). useRinging: the Ringing dialog. */
  "call:ringing": void;
  /** Someone declined the ring of the call this page is in, by name (calls/ring.client). CallPanel says so. */
  "call:declined": string;

  // --- messages and threads
  /** A message was asked to be brought into view (messages/reveal: search, links, jumps). MessageList scrolls to it. */
  "message:reveal": void;
  /** The open conversation's first page was drawn (messages/conversation-shown). Background work waiting for it resumes. */
  "conversation:shown": void;
  /** "Open this thread" from outside its conversation (threads/open: Sidebar, search). ChatPane opens the panel. */
  "thread:open-requested": void;
  /** A thread was seen, or another had new replies (threads/seen, useWorkspaceLive). ThreadsSection reads again. */
  "threads:changed": void;
  /** Thread summaries changed (threads/summaries: pages and replies). useThreadSummary redraws the "3 replies" lines. */
  "thread-summaries:changed": void;
  /** A reply seen on this page, sent here or live (threads/summaries' replyArrived). The open ThreadPanel adds it. */
  "thread:reply": DecryptedMessage;
  /** The user's archive of a conversation grew, by conversation (useWorkspaceLive). useSealedChannel reads it again where messages were unreadable. */
  "archive:grew": string;
  /** The user joined a channel with its password, by channel (conversation.client). useSealedChannel opens one that lacked it. */
  "conversation:joined": string;
  /** Someone the user shares a conversation with has new identity keys, by user (useWorkspaceLive). useSealedChannel looks at the open conversation's list again. */
  "keys:changed": string;
  /** A commit moved a conversation's MLS group to a new epoch (useWorkspaceLive). useDirectNames seals a group's name again. */
  "conversation:epoch": { channelId: string; epoch: number };
  /** A message was deleted (useWorkspaceLive, from the live stream). The open ThreadPanel drops it, or closes for its root. */
  "message:deleted": { channelId: string; messageId: string; thread?: string };
  /** A classic channel's message opened under its current key (conversation/classic.client). push/learning keeps the keys for the service worker. */
  "message:opened-classic": { userId: string; channelId: string; key: CryptoKey; senderId: string; verifyKey: CryptoKey };

  // --- stores the page reads (the module named emits when it changed; its hook redraws)
  /** The user's role or "Who can create channels" was read again (roles/standing.client). useStanding redraws. */
  "standing:read": void;
  /** The retention policy was read (retention.client). useRetentionPolicy redraws; search drops expired entries. */
  "retention:read": RetentionPolicy;
  /** A draft changed outside its box (messages/drafts.client: sent in another tab of this browser, or given an edit or reply that lost its message): its key. useDraft redraws. */
  "draft:changed": string;
  /** The file policy was read (files/policy.client). useFilePolicy redraws. */
  "file-policy:read": void;
  /** The notification rules changed (notify-rules/rules.client). useNotifyRules redraws. */
  "notify-rules:changed": void;
  /** The "Turn on notifications" offer changed (notifications/offer.client). NotifyOffer redraws. */
  "notify-offer:changed": void;
  /** The browser's install offer came or went (pwa/install.client). InstallButton redraws. */
  "install-offer:changed": void;
  /** An invite question was asked or answered (invites/ask.client). InviteDialogs shows it. */
  "invite:question": void;
  /** The users a new direct conversation waits for changed (sealed/waiting, from sealed/welcome). WaitingForDevices redraws. */
  "direct:waiting": void;
  /** The key pins changed (senders/pin-state.client). usePins redraws. */
  "key-pins:changed": void;
  /** Someone's new keys were accepted on another device of the user, by the conversations that held their messages (senders/pins.client). KeyChangeNotice reads them again. */
  "key-pins:accepted-elsewhere": string[];
  /** People's display names and photos as this page reads them changed (profile-cards/cards.client). useCard redraws. */
  "profile-cards:changed": void;
  /** The address moved (address/address.client: a move in the page, Back or Forward). useAddress redraws. */
  "address:moved": void;
};

export type EventName = keyof Events;
type Handler<K extends EventName> = (payload: Events[K]) => void;
type Payload<K extends EventName> = Events[K] extends void ? [] : [Events[K]];

const handlers = new Map<EventName, Set<(payload: never) => void>>();

/** Calls `handler` on every `name` event from now on; returns the function that stops it. */
export function on<K extends EventName>(name: K, handler: Handler<K>): () => void {
  let set = handlers.get(name);
  if (!set) handlers.set(name, (set = new Set()));
  set.add(handler);
  return () => void set.delete(handler);
}

/** Sends `name` to its handlers, in the order they came (a handler added or removed meanwhile counts from the next one). */
export function emit<K extends EventName>(name: K, ...payload: Payload<K>): void {
  const set = handlers.get(name);
  if (!set) return;
  for (const handler of [...set]) (handler as Handler<K>)(payload[0] as Events[K]);
}

/** How many handlers follow `name` (a module that listens to the browser only while someone follows it). */
export const followers = (name: EventName): number => handlers.get(name)?.size ?? 0;
