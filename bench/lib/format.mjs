// How the report writes numbers: thousands separators, milliseconds, met or not.
export const n = (v, d = 0) =>
  Number.isFinite(v) ? v.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }) : "n/a";
export const ms = (v, d = 1) => (Number.isFinite(v) ? `${n(v, d)} ms` : v === Infinity ? "lost" : "n/a");
export const yes = (ok) => (ok === null || ok === undefined ? "—" : ok ? "yes" : "**no**");
