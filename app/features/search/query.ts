import { normalizeTerm, tokenize } from "~/features/search/normalize";

/** A search as typed: free words plus the filters `in:#channel`, `from:@user` and `has:file`. */
export interface ParsedQuery {
  /** Normalised words, each matched as a prefix. */
  terms: string[];
  /** Channel names (normalised), any of which a result may be in. */
  channels: string[];
  /** Usernames (normalised), any of whom a result may be from. */
  senders: string[];
  hasFile: boolean;
}

const FILTER = /^(in|from|has):(.*)$/i;

export function parseQuery(input: string): ParsedQuery {
  const parsed: ParsedQuery = { terms: [], channels: [], senders: [], hasFile: false };
  for (const word of input.trim().split(/\s+/).filter(Boolean)) {
    const filter = FILTER.exec(word);
    const value = filter ? normalizeTerm(filter[2]) : "";
    if (filter?.[1].toLowerCase() === "in" && value.replace(/^#/, "")) parsed.channels.push(value.replace(/^#/, ""));
    else if (filter?.[1].toLowerCase() === "from" && value.replace(/^@/, "")) parsed.senders.push(value.replace(/^@/, ""));
    else if (filter?.[1].toLowerCase() === "has" && value === "file") parsed.hasFile = true;
    else parsed.terms.push(...tokenize(word).map(normalizeTerm));
  }
  return parsed;
}

/** True when the query asks for something: a word or a filter. */
export const isEmptyQuery = (q: ParsedQuery) => q.terms.length === 0 && q.channels.length === 0 && q.senders.length === 0 && !q.hasFile;
