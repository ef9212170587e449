import { useEffect, useState } from "react";
import type { VirtualRows } from "~/features/messages/VirtualRows";

/** Lists of more messages than this mount only the rows in view (ADR 36); shorter ones mount every message. */
export const VIRTUAL_FROM = 500;
/** The virtual list's code (its own chunk, not in the first load) is fetched once a list is half that long. */
const FETCH_FROM = VIRTUAL_FROM / 2;

let loaded: typeof VirtualRows | null = null;

/** The virtual rows component when a list of `count` messages is long and its code is there, else null. */
export function useVirtualRows(count: number): typeof VirtualRows | null {
  const [rows, setRows] = useState(() => loaded);
  const wanted = count > FETCH_FROM;
  useEffect(() => {
    if (!wanted || rows) return;
    let live = true;
    // (not fetched, the network away: the list stays whole, and asks again when it is shown anew)
    void import("~/features/messages/VirtualRows").then(
      (module) => {
        loaded = module.VirtualRows;
        if (live) setRows(() => module.VirtualRows);
      },
      (error: unknown) => console.warn("The long list's rows could not be loaded", error),
    );
    return () => {
      live = false;
    };
  }, [wanted, rows]);
  return count > VIRTUAL_FROM ? rows : null;
}
