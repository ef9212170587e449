import { toAttachment, toPreview, type AttachmentRecord, type PreviewRecord } from "~/features/files/attachments.server";
import type { LiveEvent } from "~/features/live/types";
import { toMessage } from "~/features/messages/messages.server";
import { env } from "~/server/env.server";
import { Upstream, type RelayData } from "~/features/live/upstream.server";

/**
 * The web process's side of PocketBase's relay (pocketbase/relay.go, docs/decisions/0013-relay.md):
 * one upstream connection per process, on which PocketBase sends each live event once with the ids
 * of its recipients. Each event is turned into the page's frame once and written to the page streams
 * of exactly those users (and, for channel-scoped events, only to the streams open on that channel).
 *
 * PocketBase decides the recipients from the database at the time of the event; it only sends ids
 * of users this process registered with their own token. A stream gets "sync" once its user is
 * registered on the current connection. When the connection ends, every stream is closed: the
 * browsers reconnect and fetch what they missed.
 */
export interface LiveSink {
  readonly userId: string;
  /** The channel the page has open: attachments, previews, deletions and member changes are sent for it only. */
  readonly channelId: string | null;
  /** SHA-256 (hex) of the session's PocketBase token: PocketBase names a signed-out session by it. */
  readonly tokenHash: string;
  /** One event, already framed; the same bytes go to every stream it is for. */
  write(frame: Uint8Array): void;
  close(): void;
}

export const liveFrame = (event: LiveEvent) => Buffer.from(`data: ${JSON.stringify(event)}\n\n`);
export const SYNC_FRAME = liveFrame({ type: "sync" });
const MEMBERSHIPS_FRAME = liveFrame({ type: "memberships" });
const MEMBERS_FRAME = liveFrame({ type: "members" });
const PING_FRAME = Buffer.from(": ping\n\n");

const HEARTBEAT_MS = 25_000;
/**
 * Under load, fan-outs are spaced: after a fan-out that took t ms, the next one waits until
 * FLUSH_SPACING × t ms have passed since it (at most MAX_FLUSH_INTERVAL_MS), and the events that
 * arrived meanwhile go out together (one socket write per stream for several events). A process with
 * a few hundred streams spends well under a millisecond per fan-out, so its events never wait; one
 * with thousands of streams at tens of messages a second makes several times fewer writes.
 */
const FLUSH_SPACING = 4;
const MAX_FLUSH_INTERVAL_MS = 100;
const REGISTRATION_TIMEOUT_MS = 10_000;
const MAX_PER_REGISTRATION = 1000;

/** The page's frame for one relay event, and whether it is for streams open on one channel only. */
export function frameFor(
  kind: string,
  record: Record<string, unknown> | null | undefined,
): { frame: Uint8Array; channel: string | null } | null {
  if (kind === "memberships") return { frame: MEMBERSHIPS_FRAME, channel: null };
  if (!record || typeof record.channel !== "string") return null;
  switch (kind) {
    case "members":
      return { frame: MEMBERS_FRAME, channel: record.channel };
    case "message":
      return { frame: liveFrame({ type: "message", message: toMessage(record as Parameters<typeof toMessage>[0]) }), channel: null };
    case "message-deleted":
      return {
        frame: liveFrame({ type: "message-deleted", channelId: record.channel, messageId: String(record.id) }),
        channel: record.channel,
      };
    case "attachment":
      return { frame: liveFrame({ type: "attachment", attachment: toAttachment(record as AttachmentRecord) }), channel: record.channel };
    case "preview":
      return { frame: liveFrame({ type: "preview", preview: toPreview(record as PreviewRecord) }), channel: record.channel };
    default:
      return null;
  }
}

interface Pending {
  token: string;
  resolve: (userId: string | null) => void;
}

export class RelayHub {
  private readonly sinks = new Map<string, Set<LiveSink>>();
  /** token hash -> the user PocketBase registered the token for on the current connection (null: refused) */
  private readonly tokens = new Map<string, Promise<string | null>>();
  private readonly userTokens = new Map<string, Set<string>>();
  private readonly removals = new Set<string>();
  private queue: Pending[] = [];
  private pending = new Map<LiveSink, Uint8Array[]>();
  private upstream: Upstream | null = null;
  private flushing = false;
  private lastFlush = 0;
  private flushInterval = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly base: URL) {
    this.heartbeat = setInterval(() => this.forEachSink((sink) => sink.write(PING_FRAME)), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  get streams() {
    let n = 0;
    for (const set of this.sinks.values()) n += set.size;
    return n;
  }

  /**
   * Adds a page stream and registers its user with PocketBase by their token. Resolves true once
   * events for the user reach the sink; false when the token was refused or the relay is down (the
   * caller then closes the stream).
   */
  async attach(sink: LiveSink, token: string): Promise<boolean> {
    let set = this.sinks.get(sink.userId);
    if (!set) this.sinks.set(sink.userId, (set = new Set()));
    set.add(sink);
    this.removals.delete(sink.userId);

    const upstream = this.connect();
    try {
      await upstream.ready;
    } catch {
      return false;
    }
    let registration = this.tokens.get(sink.tokenHash);
    if (!registration) {
      registration = new Promise<string | null>((resolve) => this.queue.push({ token, resolve }));
      this.tokens.set(sink.tokenHash, registration);
      let tokens = this.userTokens.get(sink.userId);
      if (!tokens) this.userTokens.set(sink.userId, (tokens = new Set()));
      tokens.add(sink.tokenHash);
      this.kick();
    }
    const userId = await registration;
    return userId === sink.userId && this.upstream === upstream && (this.sinks.get(sink.userId)?.has(sink) ?? false);
  }

  detach(sink: LiveSink) {
    const set = this.sinks.get(sink.userId);
    if (!set?.delete(sink) || set.size > 0) return;
    this.sinks.delete(sink.userId);
    for (const token of this.userTokens.get(sink.userId) ?? []) this.tokens.delete(token);
    this.userTokens.delete(sink.userId);
    if (this.upstream) {
      this.removals.add(sink.userId);
      this.kick();
    }
  }

  private forEachSink(fn: (sink: LiveSink) => void) {
    for (const set of this.sinks.values()) for (const sink of set) fn(sink);
  }

  private connect(): Upstream {
    if (this.upstream) return this.upstream;
    const upstream: Upstream = new Upstream(
      this.base,
      (kind, data) => this.deliver(kind, data),
      () => this.scheduleFlush(),
      () => this.lost(upstream),
    );
    this.upstream = upstream;
    return upstream;
  }

  /** The connection ended: every registration is void, every stream closes (its browser reconnects). */
  private lost(upstream: Upstream) {
    if (this.upstream !== upstream) return;
    this.upstream = null;
    this.pending.clear();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.tokens.clear();
    this.userTokens.clear();
    this.removals.clear();
    const queued = this.queue;
    this.queue = [];
    for (const pending of queued) pending.resolve(null);
    const sinks: LiveSink[] = [];
    this.forEachSink((sink) => sinks.push(sink));
    this.sinks.clear();
    for (const sink of sinks) sink.close();
  }

  /**
   * Queues one event's frame for its recipients' streams. The frames of the events that arrived in
   * one read from PocketBase go out together (flushFrames): under load, when events come faster than
   * one fan-out takes, each stream gets one write for several events instead of one per event.
   */
  private deliver(kind: string, data: RelayData) {
    if (kind === "revoked") return this.revoked(data.record?.token);
    if (!Array.isArray(data.to)) return;
    const out = frameFor(kind, data.record);
    if (!out) return;
    const pending = this.pending;
    for (const userId of data.to) {
      const set = typeof userId === "string" ? this.sinks.get(userId) : undefined;
      if (!set) continue;
      for (const sink of set) {
        if (out.channel !== null && sink.channelId !== out.channel) continue;
        const frames = pending.get(sink);
        if (frames) frames.push(out.frame);
        else pending.set(sink, [out.frame]);
      }
    }
  }

  /** A session was signed out: its streams close at once, and its token is not registered again. */
  private revoked(hash: unknown) {
    if (typeof hash !== "string") return;
    this.tokens.set(hash, Promise.resolve(null));
    const closing: LiveSink[] = [];
    this.forEachSink((sink) => {
      if (sink.tokenHash === hash) closing.push(sink);
    });
    for (const sink of closing) sink.close();
  }

  /** Flushes now, or, sooner than the spacing after the last fan-out, when the spacing ends. */
  private scheduleFlush() {
    if (this.flushTimer || this.pending.size === 0) return;
    const wait = this.lastFlush + this.flushInterval - performance.now();
    if (wait <= 0) return this.flushFrames();
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flushFrames();
    }, wait);
  }

  private flushFrames() {
    const start = performance.now();
    this.lastFlush = start;
    if (this.pending.size === 0) return;
    const pending = this.pending;
    this.pending = new Map();
    for (const [sink, frames] of pending) sink.write(frames.length === 1 ? frames[0] : Buffer.concat(frames));
    this.flushInterval = Math.min(MAX_FLUSH_INTERVAL_MS, FLUSH_SPACING * (performance.now() - start));
  }

  private kick() {
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => {
      this.flush().finally(() => {
        this.flushing = false;
        if (this.queue.length > 0 || this.removals.size > 0) this.kick();
      });
    });
  }

  /** Sends queued registrations and removals, one request at a time so that they apply in order. */
  private async flush() {
    while (this.queue.length > 0 || this.removals.size > 0) {
      const upstream = this.upstream;
      if (!upstream) return;
      const batch = this.queue.splice(0, MAX_PER_REGISTRATION);
      const remove = [...this.removals].slice(0, MAX_PER_REGISTRATION);
      for (const id of remove) this.removals.delete(id);
      let users: unknown[] | undefined;
      try {
        const relayId = await upstream.ready;
        const response = await fetch(new URL("/api/chatcrypt/relay/users", this.base), {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ relay: relayId, add: batch.map((p) => p.token), remove }),
          signal: AbortSignal.timeout(REGISTRATION_TIMEOUT_MS),
        });
        const body = (await response.json().catch(() => undefined)) as { users?: unknown[] } | undefined;
        if (response.ok && Array.isArray(body?.users) && body.users.length === batch.length) users = body.users;
      } catch {
        users = undefined;
      }
      if (!users) {
        // PocketBase lost this connection or cannot answer: start over with a new one.
        for (const pending of batch) pending.resolve(null);
        upstream.close();
        return;
      }
      batch.forEach((pending, i) => pending.resolve(typeof users[i] === "string" && users[i] !== "" ? (users[i] as string) : null));
    }
  }
}

let hub: RelayHub | undefined;

/** This process's relay hub (created on first use). */
export function relayHub(): RelayHub {
  hub ??= new RelayHub(new URL(env().PB_URL));
  return hub;
}
