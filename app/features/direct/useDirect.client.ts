import { useCallback, useState } from "react";
import { messageOf } from "~/lib/errors";
import type { Channel } from "~/features/channels/types";
import { addPeople, startDirect } from "~/features/direct/direct.client";
import type { Person } from "~/features/direct/types";

type Picker = { kind: "new" } | { kind: "add"; channel: Channel };

/**
 * "New message" and "Add people": the picker that is open, and what its choice does. A new
 * conversation is opened once the page has made it ready (its MLS group made by this device); a
 * one-to-one the two already have is opened as it is.
 */
export function useDirect(open: (id: string, how: "created" | "joined") => Promise<void>, reload: () => Promise<unknown>) {
  const [picker, setPicker] = useState<Picker | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const show = useCallback((next: Picker | null) => {
    setPicker(next);
    setError(null);
  }, []);

  const choose = useCallback(
    async (people: Person[], name: string) => {
      if (!picker) return;
      setBusy(true);
      setError(null);
      try {
        const ids = people.map((p) => p.id);
        if (picker.kind === "add") {
          await addPeople(picker.channel.id, ids);
          await reload();
        } else {
          const started = await startDirect(ids, name || undefined);
          await open(started.id, started.existing ? "joined" : "created");
        }
        setPicker(null);
      } catch (failure) {
        setError(
          messageOf(
            failure,
            picker.kind === "add"
              ? "The people could not be added. Please try again."
              : "The conversation could not be started. Please try again.",
          ),
        );
      } finally {
        setBusy(false);
      }
    },
    [picker, open, reload],
  );

  return {
    picker,
    busy,
    error,
    openNew: () => show({ kind: "new" }),
    openAdd: (channel: Channel) => show({ kind: "add", channel }),
    close: () => show(null),
    choose,
  };
}
