/**
 * Writes live events to page streams, several events at once per stream under load
 * (docs/decisions/0013-relay.md).
 *
 * Events are queued with their recipients' slots; a flush writes each slot's frames in one write.
 * Fan-outs are spaced by their own cost: after a fan-out that took t ms, the next one waits until
 * SPACING × t ms have passed since it (at most MAX_INTERVAL_MS), and the events that arrived
 * meanwhile go out together. A process with a few hundred streams spends well under a millisecond
 * per fan-out, so its events never wait; one with thousands of streams at tens of messages a second
 * makes several times fewer writes.
 *
 * A fan-out to thousands of streams is written in chunks, so that a message POST arriving meanwhile
 * waits for one chunk, not for the whole fan-out.
 *
 * Streams that are to receive the same events (every member's stream for a channel's messages) get
 * the same bytes: the frames are joined once per distinct set of events in a flush, not per stream,
 * so a fan-out allocates almost nothing per stream.
 */
export interface FanOutTarget {
  /** The channel the page has open: channel-scoped events go only to streams open on it. */
  readonly channelId: string | null;
  write(bytes: Uint8Array): void;
}

export interface FanOutSlot<T extends FanOutTarget> {
  readonly target: T;
  /** The events queued for this stream in the current window (null: none). */
  queued: Queued | null;
}

/**
 * A list of the window's events, as a node of a tree: the root is the empty list, a child is its
 * parent's list and one more event. Streams that receive the same events in the same order hold the
 * same node, and so get the same joined bytes, however many events the window has.
 */
interface Queued {
  readonly frame: Uint8Array | null;
  readonly parent: Queued | null;
  readonly count: number;
  /** The child for the event that first extended this list (most streams take the same path). */
  firstIndex: number;
  first: Queued | null;
  /** Children for other events, by the event's index in the window. */
  others: Map<number, Queued> | null;
  /** The frames joined (once, when the window is written). */
  bytes: Uint8Array | null;
}

const emptyList = (): Queued => ({ frame: null, parent: null, count: 0, firstIndex: -1, first: null, others: null, bytes: null });

/** The list `from` with the window's event `index` appended (the same node for every stream that asks). */
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

/** One fan-out's writes: the bytes for each target, side by side. */
interface Writes<T> {
  targets: T[];
  bytes: Uint8Array[];
}

export class FanOut<T extends FanOutTarget> {
  private touched: FanOutSlot<T>[] = [];
  private window = 0;
  private lists = emptyList();
  private lastFlush = -Infinity;
  private interval = 0;
  private timer: NodeJS.Timeout | null = null;
  /** The fan-out being written, chunk by chunk (its CPU time so far). */
  private writing: { busy: number } | null = null;

  constructor(private readonly now: () => number = () => performance.now()) {}

  static slot<T extends FanOutTarget>(target: T): FanOutSlot<T> {
    return { target, queued: null };
  }

  /** Frames waiting to be written (streams with something queued). */
  get waiting() {
    return this.touched.length;
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

  /** queue, for recipients' streams already looked up (FanOut.resolve). */
  queueSlots(frame: Uint8Array, channel: string | null, slots: readonly FanOutSlot<T>[]) {
    const index = this.window++;
    for (const slot of slots) {
      if (channel !== null && slot.target.channelId !== channel) continue;
      if (slot.queued === null) this.touched.push(slot);
      slot.queued = extend(slot.queued ?? this.lists, index, frame);
    }
  }

  /** Flushes now, or, sooner than the spacing after the last fan-out, when the spacing ends. */
  schedule() {
    if (this.timer || this.writing || this.touched.length === 0) return;
    const wait = this.lastFlush + this.interval - this.now();
    if (wait <= 0) return this.flush();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, wait);
  }

  /** Drops everything queued (the connection the events came from ended). */
  clear() {
    for (const slot of this.touched) slot.queued = null;
    this.touched = [];
    this.window = 0;
    this.lists = emptyList();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing = null;
  }

  /**
   * Takes the window's frames off their slots (joined once per distinct list of events), then writes
   * them CHUNK streams at a time, letting other work of the process (a message POST, PocketBase's
   * next events) run between chunks. The next window waits until this one is written, so a stream
   * gets its events in order.
   */
  private flush() {
    const touched = this.touched;
    if (touched.length === 0) return;
    this.lastFlush = this.now();
    this.touched = [];
    this.window = 0;
    this.lists = emptyList();
    const writes: Writes<T> = { targets: [], bytes: [] };
    for (const slot of touched) {
      const queued = slot.queued;
      slot.queued = null;
      if (!queued) continue;
      writes.targets.push(slot.target);
      writes.bytes.push(bytesOf(queued));
    }
    const run = { busy: this.now() - this.lastFlush };
    this.writing = run;
    this.writeChunk(run, writes, 0);
  }

  private writeChunk(run: { busy: number }, writes: Writes<T>, from: number) {
    if (this.writing !== run) return;
    const start = this.now();
    const to = Math.min(writes.targets.length, from + CHUNK);
    for (let i = from; i < to; i++) writes.targets[i].write(writes.bytes[i]);
    run.busy += this.now() - start;
    if (to < writes.targets.length) {
      setImmediate(() => this.writeChunk(run, writes, to));
      return;
    }
    this.writing = null;
    this.interval = Math.min(MAX_INTERVAL_MS, SPACING * run.busy);
    this.schedule();
  }
}
