import { useState } from "react";

/** The Members panel of the open conversation: opening it reads the list afresh (`refresh`), then `then` (the sealed state). */
export function useMembersPanel(refresh: () => Promise<unknown>, then: () => void) {
  const [open, setOpen] = useState(false);
  return {
    open,
    close: () => setOpen(false),
    toggle: () => {
      if (!open) void refresh().then(then);
      setOpen((o) => !o);
    },
  };
}
