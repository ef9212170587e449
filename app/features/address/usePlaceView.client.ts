import { useEffect } from "react";
import type { Channel } from "~/conversation/channels/types";
import { useAddress } from "~/features/address/address.client";
import { titlePlace } from "~/ui/title";

const PHONE = "(max-width: 720px)";

/**
 * What the page shows for its address (ADR 0061): the document's title names the open conversation
 * (a name the page knows, never sent anywhere), an address naming a conversation that is not in the
 * person's list is "not available", and on a phone, Back to no conversation shows the list again.
 */
export function usePlaceView(channels: readonly Channel[] | null, selected: Channel | null, showList: () => void) {
  const { place, how, move } = useAddress();
  const name = selected?.name;
  useEffect(() => titlePlace(name ?? null), [name]);
  useEffect(() => () => titlePlace(null), []);
  const home = place.conversationId === null;
  useEffect(() => {
    if (home && how === "pop" && window.matchMedia(PHONE).matches) showList();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per move
  }, [move]);
  return { unavailable: Boolean(channels && place.conversationId !== null && !selected) };
}
