import MiniSearch, { type SearchResult } from "minisearch";
import { normalizeTerm, tokenize } from "~/features/search/normalize";
import type { ParsedQuery } from "~/features/search/query";

/** One message as the index holds it (ADR 0014): its words, and what a result shows. */
export interface SearchDoc {
  id: string;
  channelId: string;
  senderId: string;
  sender: string;
  created: string;
  text: string;
  /** File names and link-preview titles. */
  extra: string;
  hasFile: boolean;
  /** When the text is an edit: the edit's time (a later edit wins). */
  editedAt?: string;
  /** A reply that is only in its thread: the thread's root (the result opens the thread). */
  thread?: string;
}

/** Where the background backfill of one channel stands. */
export interface ChunkMeta {
  /** The oldest message indexed from history: backfill goes on before it. */
  oldest?: string;
  /** That message's id (several may share its millisecond; absent in an index saved before it was kept). */
  oldestId?: string;
  /** The newest message indexed: a catch-up after a reload asks for what came after it. */
  newest?: string;
  /** The whole history was paged through. */
  complete: boolean;
  /** The channel's number of messages (the list endpoint's count), for the progress figure. */
  total: number;
}

export interface SearchHit extends SearchDoc {
  terms: string[];
  score: number;
}

const FIELDS = ["text", "extra"];
const STORED = ["channelId", "senderId", "sender", "created", "text", "extra", "hasFile", "editedAt", "thread"];
const OPTIONS = {
  fields: FIELDS,
  storeFields: STORED,
  tokenize,
  processTerm: (term: string) => normalizeTerm(term) || null,
};

const newIndex = () => new MiniSearch<SearchDoc>(OPTIONS);

/** One channel's part of the index: saved and loaded on its own, so a save is incremental. */
export class Chunk {
  constructor(
    readonly channelId: string,
    readonly index: MiniSearch<SearchDoc> = newIndex(),
    public meta: ChunkMeta = { complete: false, total: 0 },
  ) {}

  static load(channelId: string, json: string): Chunk {
    const { index, meta } = JSON.parse(json) as { index: unknown; meta: ChunkMeta };
    return new Chunk(channelId, MiniSearch.loadJS<SearchDoc>(index as Parameters<typeof MiniSearch.loadJS>[0], OPTIONS), meta);
  }

  serialize(): string {
    return JSON.stringify({ index: this.index, meta: this.meta });
  }

  get(id: string): SearchDoc | undefined {
    if (!this.index.has(id)) return undefined;
    return { id, ...(this.index.getStoredFields(id) as unknown as Omit<SearchDoc, "id">) };
  }
}

/** The whole local index: one chunk per channel, ids across channels, and which chunks changed since the last save. */
export class SearchIndex {
  readonly chunks = new Map<string, Chunk>();
  readonly dirty = new Set<string>();

  chunk(channelId: string): Chunk {
    let chunk = this.chunks.get(channelId);
    if (!chunk) {
      chunk = new Chunk(channelId);
      this.chunks.set(channelId, chunk);
    }
    return chunk;
  }

  /** Adds messages, or replaces the indexed copy (an edit's text stays when the copy is older than it). */
  upsert(docs: readonly SearchDoc[]) {
    for (const doc of docs) {
      const chunk = this.chunk(doc.channelId);
      const current = chunk.get(doc.id);
      if (current && sameDoc(current, doc)) continue;
      const next = current?.editedAt && !doc.editedAt ? { ...doc, text: current.text, editedAt: current.editedAt } : doc;
      if (current) chunk.index.replace(next);
      else chunk.index.add(next);
      this.dirty.add(doc.channelId);
    }
  }

  /** An edit: its sender's latest text replaces the message's. */
  edit(targetId: string, edit: { senderId: string; text: string; created: string }) {
    for (const chunk of this.chunks.values()) {
      const doc = chunk.get(targetId);
      if (!doc) continue;
      if (doc.senderId !== edit.senderId || (doc.editedAt ?? "") >= edit.created) return;
      chunk.index.replace({ ...doc, text: edit.text, editedAt: edit.created });
      this.dirty.add(chunk.channelId);
      return;
    }
  }

  /** A deleted message leaves the index. */
  remove(id: string) {
    for (const chunk of this.chunks.values()) {
      if (!chunk.index.has(id)) continue;
      chunk.index.discard(id);
      this.dirty.add(chunk.channelId);
      return;
    }
  }

  /** Retention: the channel's messages older than `cutoff` (ISO 8601) leave the index; answers how many. */
  dropBefore(channelId: string, cutoff: string): number {
    const chunk = this.chunks.get(channelId);
    if (!chunk) return 0;
    const old = chunk.index.search(MiniSearch.wildcard).filter((hit) => String(hit.created).replace(" ", "T") < cutoff);
    for (const hit of old) chunk.index.discard(hit.id);
    if (old.length > 0) this.dirty.add(channelId);
    return old.length;
  }

  /** A cleared (or left) channel: its whole chunk goes. */
  clearChannel(channelId: string) {
    if (!this.chunks.delete(channelId)) return;
    this.dirty.add(channelId);
  }

  count(): number {
    let n = 0;
    for (const chunk of this.chunks.values()) n += chunk.index.documentCount;
    return n;
  }

  /**
   * The best matches of a query, newest first within equal relevance. Every word is a prefix
   * ("encr" finds "encrypted") and all must match; `in:` and `from:` match the start of a channel
   * name or username, `has:file` keeps messages with files.
   */
  search(query: ParsedQuery, names: { channel: (id: string) => string | undefined }, limit = 100): SearchHit[] {
    const hits: SearchHit[] = [];
    for (const chunk of this.chunks.values()) {
      const name = names.channel(chunk.channelId);
      if (name === undefined) continue;
      if (query.channels.length && !query.channels.some((c) => normalizeTerm(name).startsWith(c))) continue;
      const filter = (r: SearchResult) =>
        (!query.senders.length || query.senders.some((s) => normalizeTerm(String(r.sender)).startsWith(s))) &&
        (!query.hasFile || r.hasFile === true);
      const found = query.terms.length
        ? chunk.index.search(query.terms.join(" "), { prefix: true, combineWith: "AND", filter })
        : chunk.index.search(MiniSearch.wildcard, { filter });
      for (const r of found) {
        hits.push({ ...(r as unknown as SearchDoc), id: String(r.id), terms: query.terms, score: r.score });
      }
    }
    hits.sort((a, b) => b.score - a.score || (a.created < b.created ? 1 : -1));
    return hits.slice(0, limit);
  }
}

const sameDoc = (a: SearchDoc, b: SearchDoc) =>
  a.text === b.text && a.extra === b.extra && a.hasFile === b.hasFile && a.sender === b.sender && a.editedAt === b.editedAt;
