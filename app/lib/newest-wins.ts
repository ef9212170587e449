/**
 * Orders the answers of overlapping loads of the same data: each load takes a ticket when it starts,
 * and its answer is applied only if no load that started later has been applied already. An older
 * answer arriving late (e.g. a channel list requested before a channel was created) never replaces a
 * newer one.
 */
export function newestWins() {
  let started = 0;
  let applied = 0;
  return {
    start: () => ++started,
    /** True (and recorded) when the answer of this ticket is the newest so far. */
    apply: (ticket: number) => {
      if (ticket <= applied) return false;
      applied = ticket;
      return true;
    },
  };
}
