/** Search text normalisation: case- and accent-insensitive ("Café" and "cafe" are one term). */
export const normalizeTerm = (term: string): string => term.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();

/** The words of a text, as the index splits them (letters and digits; everything else separates). */
export const tokenize = (text: string): string[] => text.split(/[^\p{L}\p{M}\p{N}]+/u).filter(Boolean);

/**
 * The parts of `text` a query's terms match (a term matches a word it starts, after normalisation),
 * for highlighting: alternating plain and matched segments.
 */
export function highlightSegments(text: string, terms: readonly string[]): { text: string; match: boolean }[] {
  const wanted = terms.map(normalizeTerm).filter(Boolean);
  const out: { text: string; match: boolean }[] = [];
  const push = (part: string, match: boolean) => {
    if (!part) return;
    const last = out[out.length - 1];
    if (last && last.match === match) last.text += part;
    else out.push({ text: part, match });
  };
  for (const part of text.split(/([\p{L}\p{M}\p{N}]+)/u)) {
    const word = normalizeTerm(part);
    push(part, word !== "" && wanted.some((t) => word.startsWith(t)));
  }
  return out;
}
