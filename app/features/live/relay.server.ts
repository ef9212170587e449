import { frameFor, liveFrame } from "~/features/live/frames.server";
import { messageCommitted } from "~/features/messages/committed.server";
import { env } from "~/server/env.server";
import { FanOut, type FanOutSlot } from "~/features/live/fanout.server";
import { Upstream, type RelayData } from "~/features/live/upstream.server";
import { forgetSession } from "~/server/session-check.server";
import { streamsBeyondCaps } from "~/features/live/stream-caps.server";

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

const PING_FRAME = Buffer.from(": ping\n\n");
const SIGNED_OUT_FRAME = liveFrame({ type: "signed-out" });

const HEARTBEAT_MS = 25_000;
const REGISTRATION_TIMEOUT_MS = 10_000;
const MAX_PER_REGISTRATION = 1000;

interface Pending {
  token: string;
  resolve: (userId: string | null) => void;
}

export class RelayHub {
  /** user id -> the slots of their streams in this process */
  private readonly sinks = new Map<string, FanOutSlot<LiveSink>[]>();
  private readonly fanOut = new FanOut<LiveSink>();
  private readonly slotsOf = (userId: string) => this.sinks.get(userId);
  /** Recipient lists PocketBase named (RelayData), with their streams as last looked up. */
  private readonly lists = new Map<string, { to: unknown[]; streams: number; slots: FanOutSlot<LiveSink>[] }>();
  /** Changes whenever a stream is added or removed. */
  private streamsChanged = 0;
  /** token hash -> the user PocketBase registered the token for on the current connection (null: refused) */
  private readonly tokens = new Map<string, Promise<string | null>>();
  private readonly userTokens = new Map<string, Set<string>>();
  private readonly removals = new Set<string>();
  private queue: Pending[] = [];
  private upstream: Upstream | null = null;
  private flushing = false;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly base: URL) {
    this.heartbeat = setInterval(() => this.forEachSink((sink) => sink.write(PING_FRAME)), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  get streams() {
    let n = 0;
    for (const slots of this.sinks.values()) n += slots.length;
    return n;
  }

  /**
   * Adds a page stream and registers its user with PocketBase by their token. Resolves true once
   * events for the user reach the sink; false when the token was refused or the relay is down (the
   * caller then closes the stream).
   */
  async attach(sink: LiveSink, token: string): Promise<boolean> {
    const slot = FanOut.slot(sink);
    const slots = this.sinks.get(sink.userId);
    if (slots) slots.push(slot);
    else this.sinks.set(sink.userId, [slot]);
    this.streamsChanged++;
    this.removals.delete(sink.userId);
    // beyond a session's or an account's cap, its oldest streams make way (stream-caps.server.ts)
    for (const old of streamsBeyondCaps((slots ?? [slot]).map((s) => s.target))) old.close();

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
    return userId === sink.userId && this.upstream === upstream && (this.sinks.get(sink.userId)?.includes(slot) ?? false);
  }

  detach(sink: LiveSink) {
    const slots = this.sinks.get(sink.userId);
    const at = slots ? slots.findIndex((slot) => slot.target === sink) : -1;
    if (!slots || at < 0) return;
    slots.splice(at, 1);
    this.streamsChanged++;
    if (slots.length > 0) return;
    this.sinks.delete(sink.userId);
    for (const token of this.userTokens.get(sink.userId) ?? []) this.tokens.delete(token);
    this.userTokens.delete(sink.userId);
    if (this.upstream) {
      this.removals.add(sink.userId);
      this.kick();
    }
  }

  private forEachSink(fn: (sink: LiveSink) => void) {
    for (const slots of this.sinks.values()) for (const slot of slots) fn(slot.target);
  }

  private connect(): Upstream {
    if (this.upstream) return this.upstream;
    const upstream: Upstream = new Upstream(
      this.base,
      (kind, data) => this.deliver(kind, data),
      () => this.fanOut.schedule(),
      () => this.lost(upstream),
    );
    this.upstream = upstream;
    return upstream;
  }

  /** The connection ended: every registration is void, every stream closes (its browser reconnects). */
  private lost(upstream: Upstream) {
    if (this.upstream !== upstream) return;
    this.upstream = null;
    this.fanOut.clear();
    this.lists.clear();
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
   * Queues one event's frame for its recipients' streams (FanOut): the frames of the events that
   * arrive while a fan-out's spacing runs go out together, one write per stream.
   */
  private deliver(kind: string, data: RelayData) {
    if (kind === "revoked") return this.revoked(data.record?.token);
    // (a send of this process waiting for this message is answered once this read's fan-out is written)
    if (kind === "message" && data.record) messageCommitted(data.record);
    const out = frameFor(kind, data.record);
    if (typeof data.list !== "string") {
      if (out && Array.isArray(data.to)) this.fanOut.queue(out.frame, out.channel, data.to, this.slotsOf);
      return;
    }
    let list = this.lists.get(data.list);
    if (Array.isArray(data.to)) this.lists.set(data.list, (list = { to: data.to, streams: -1, slots: [] }));
    if (!list) {
      // PocketBase names only lists it sent on this connection: should one be missing, start over
      // with a new connection (the streams close, their browsers reconnect and fetch what they missed).
      this.upstream?.close();
      return;
    }
    if (!out) return;
    // The list's streams are looked up again only when this process's streams changed.
    if (list.streams !== this.streamsChanged) {
      list = { to: list.to, streams: this.streamsChanged, slots: FanOut.resolve(list.to, this.slotsOf) };
      this.lists.set(data.list, list);
    }
    this.fanOut.queueSlots(out.frame, out.channel, list.slots);
  }

  /**
   * A session was signed out (PocketBase tells every web process): its streams here close at once, its
   * token is not registered again, and its next request asks PocketBase whether it is valid.
   */
  private revoked(hash: unknown) {
    if (typeof hash !== "string") return;
    forgetSession(hash);
    if (this.tokens.has(hash)) this.tokens.set(hash, Promise.resolve(null));
    const closing: LiveSink[] = [];
    this.forEachSink((sink) => {
      if (sink.tokenHash === hash) closing.push(sink);
    });
    for (const sink of closing) {
      sink.write(SIGNED_OUT_FRAME);
      sink.close();
    }
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
