// Chat-like messages for the search bench: short sentences from a working vocabulary with a few
// accented words, names and numbers, reproducible (seeded).
const WORDS = (
  "the a we you it is are to of and in on for with at this that be will can should meeting tomorrow today " +
  "deploy release build review budget invoice encrypted password channel message file report draft plan " +
  "weekend plans lunch coffee café résumé naïve déjà vu fiancé piñata client server bug fix test merge " +
  "branch ticket sprint standup design spec draft agenda notes slides call video link photo customer " +
  "sales quarter numbers revenue forecast hiring interview onboarding laptop office remote holiday " +
  "schedule monday tuesday wednesday thursday friday thanks please sorry great sounds good ok later soon"
).split(" ");

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function chatCorpus(n, seed = 14) {
  const next = rng(seed);
  const docs = [];
  for (let i = 0; i < n; i++) {
    const len = 4 + Math.floor(next() * 18);
    const words = [];
    for (let w = 0; w < len; w++) words.push(WORDS[Math.floor(next() * WORDS.length)]);
    if (next() < 0.1) words.push(String(Math.floor(next() * 10_000)));
    docs.push({ id: i + 1, text: words.join(" ") });
  }
  return docs;
}

/** Lower case without diacritics (the app's normalisation, app/features/search/normalize.ts). */
export const normalizeTerm = (term) => term.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
