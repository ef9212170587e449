/**
 * Writes live events to page streams, several events at once per stream under load
 * (docs/decisions/0013-relay.md, docs/decisions/0045-fan-out-sweeps.md).
 *
 * Events are queued with their recipients' slots; a sweep writes each slot's frames in one write.
 * Sweeps are spaced by their own cost: after a sweep that took t ms, the next one waits until
 * SPACING × t ms have passed since it began (at most MAX_INTERVAL_MS), and the events that arrived
 * meanwhile go out together. A process with a few hundred streams spends well under a millisecond
 * per sweep, so its events never wait; one with thousands of streams at tens of messages a second
 * makes several times fewer writes.
 *
 * A sweep over thousands of streams is written in chunks, so that a message POST arriving meanwhile
 * waits for one chunk, not for the whole sweep. A slot's bytes are taken when the sweep reaches it,
 * not when the sweep begins: an event that arrives during a sweep goes out with it to every stream
 * the sweep has not reached yet, and with the next sweep to those it has passed. Under load, when
 * sweeps follow each other, an event then waits at most about one sweep for any stream, not the
 * rest of the current sweep and then up to a whole next one.
 *
 * Streams that are to receive the same events (every member's stream for a channel's messages) get
 * the same bytes: the frames are joined once per distinct list of events, not per stream, so a
 * sweep allocates almost nothing per stream.
 */
export interface FanOutTarget {
  /** The channel the page has open: channel-scoped events go only to streams open on it. */
  readonly channelId: string | null;
  write(bytes: Uint8Array): void;
}

export interface FanOutSlot<T extends FanOutTarget> {
  readonly target: T;
  /** The events queued for this stream and not yet written (null: none). */
  queued: Queued | null;
  /** The sweep that last wrote to this stream. */
  written: number;
}

/**
 * A list of queued events, as a node of a tree: the root is the empty list, a child is its parent's
 * list and one more event. Streams that receive the same events in the same order hold the same
 * node, and so get the same joined bytes, however many events they have. Events are numbered in
 * the order they arrive, never reused, so a node queued before a new root was made can still be
 * extended.
 */
interface Queued {
  readonly frame: Uint8Array | null;
  readonly parent: Queued | null;
  readonly count: number;
  /** The child for the event that first extended this list (most streams take the same path). */
  firstIndex: number;
  first: Queued | null;
  /** Children for other events, by the event's number. */
  others: Map<number, Queued> | null;
  /** The frames joined (once, when a sweep first writes this list). */
  bytes: Uint8Array | null;
}

const emptyList = (): Queued => ({ frame: null, parent: null, count: 0, firstIndex: -1, first: null, others: null, bytes: null });

/** The list `from` with event `index` appended (the same node for every stream that asks). */
function extend(from: Queued, index: number, frame: Uint8Array): Queued {
  if (from.firstIndex === index) return from.first as Queued;
  const known = from.others?.get(index);
  if (known) return known;
  const next: Queued = { frame, parent: from, count: from.count + 1, firstIndex: -1, first: null, others: null, bytes: null };
  if (from.firstIndex === -1) {
    from.firstIndex = index;
    from.first = next;
  } else (from.others ??= new Map()).set(index, next);
  return next;
}

/** A list's frames in one buffer: the frame itself for one event, else joined once per list. */
function bytesOf(list: Queued): Uint8Array {
  if (list.bytes) return list.bytes;
  if (list.count === 1) return (list.bytes = list.frame as Uint8Array);
  const frames = new Array<Uint8Array>(list.count);
  for (let node: Queued | null = list, i = list.count - 1; node?.frame; node = node.parent, i--) frames[i] = node.frame;
  return (list.bytes = Buffer.concat(frames));
}

export const SPACING = 4;
export const MAX_INTERVAL_MS = 100;
/** Streams written to before the process turns to other work, within one fan-out. */
export const CHUNK = 250;

export class FanOut<T extends FanOutTarget> {
  /** Slots with something queued that the next sweep is to write. */
  private pending: FanOutSlot<T>[] = [];
  /** The sweep being written (its slots, the next one to write, its number and CPU time so far). */
  private sweep: { slots: FanOutSlot<T>[]; at: number; id: number; busy: number } | null = null;
  private sweeps = 0;
  private events = 0;
  private lists = emptyList();
  private lastFlush = -Infinity;
  private interval = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly now: () => number = () => performance.now()) {}

  static slot<T extends FanOutTarget>(target: T): FanOutSlot<T> {
    return { target, queued: null, written: 0 };
  }

  /** Streams with something queued, not yet written. */
  get waiting() {
    return this.pending.length + (this.sweep ? this.sweep.slots.length - this.sweep.at : 0);
  }

  /**
   * Queues one event's frame for the slots of its recipients (`slotsOf` maps a recipient id to its
   * streams); a channel-scoped event (`channel` not null) only for streams open on that channel.
   */
  queue(
    frame: Uint8Array,
    channel: string | null,
    recipients: readonly unknown[],
    slotsOf: (id: string) => readonly FanOutSlot<T>[] | undefined,
  ) {
    this.queueSlots(frame, channel, FanOut.resolve(recipients, slotsOf));
  }

  /** The streams of a list of recipients, in order. */
  static resolve<T extends FanOutTarget>(recipients: readonly unknown[], slotsOf: (id: string) => readonly FanOutSlot<T>[] | undefined) {
    const out: FanOutSlot<T>[] = [];
    for (const id of recipients) {
      const slots = typeof id === "string" ? slotsOf(id) : undefined;
      if (slots) for (const slot of slots) out.push(slot);
    }
    return out;
  }

  /**
   * queue, for recipients' streams already looked up (FanOut.resolve). A stream with nothing queued
   * joins the sweep being written if that sweep has not written to it yet, else the next one.
   */
  queueSlots(frame: Uint8Array, channel: string | null, slots: readonly FanOutSlot<T>[]) {
    const index = this.events++;
    const sweep = this.sweep;
    for (const slot of slots) {
      if (channel !== null && slot.target.channelId !== channel) continue;
      if (slot.queued === null) (sweep && slot.written !== sweep.id ? sweep.slots : this.pending).push(slot);
      slot.queued = extend(slot.queued ?? this.lists, index, frame);
    }
  }

  /** Starts a sweep now, or, sooner than the spacing after the last one began, when the spacing ends. */
  schedule() {
    if (this.timer || this.sweep || this.pending.length === 0) return;
    const wait = this.lastFlush + this.interval - this.now();
    if (wait <= 0) return this.flush();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, wait);
  }

  /** Drops everything queued (the connection the events came from ended). */
  clear() {
    for (const slot of this.pending) slot.queued = null;
    if (this.sweep) for (const slot of this.sweep.slots) slot.queued = null;
    this.pending = [];
    this.sweep = null;
    this.lists = emptyList();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Begins a sweep over the slots queued so far; the lists queued from now on start from a new root. */
  private flush() {
    if (this.pending.length === 0) return;
    this.lastFlush = this.now();
    const sweep = { slots: this.pending, at: 0, id: ++this.sweeps, busy: 0 };
    this.pending = [];
    this.lists = emptyList();
    this.sweep = sweep;
    this.writeChunk(sweep);
  }

  /**
   * Writes the next CHUNK slots of the sweep, each with what it has queued by now, letting other work
   * of the process (a message POST, PocketBase's next events) run between chunks. The next sweep
   * waits until this one is written, so a stream gets its events in order.
   */
  private writeChunk(sweep: NonNullable<FanOut<T>["sweep"]>) {
    if (this.sweep !== sweep) return;
    const start = this.now();
    const to = Math.min(sweep.slots.length, sweep.at + CHUNK);
    for (let i = sweep.at; i < to; i++) {
      const slot = sweep.slots[i];
      const queued = slot.queued;
      if (!queued) continue;
      slot.queued = null;
      slot.written = sweep.id;
      slot.target.write(bytesOf(queued));
    }
    sweep.at = to;
    sweep.busy += this.now() - start;
    if (to < sweep.slots.length) {
      setImmediate(() => this.writeChunk(sweep));
      return;
    }
    this.sweep = null;
    this.interval = Math.min(MAX_INTERVAL_MS, SPACING * sweep.busy);
    this.schedule();
  }
}
