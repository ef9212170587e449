/**
 * The chat's own addresses (`/`, `/c/...`, ADR 0061) and the event the page hears for Back and Forward
 * between them (features/address/address.client.ts).
 */
export const CHAT_ADDRESS = /^\/(c\/|$)/;
export const ADDRESS_EVENT = "chatcrypt:address";

/**
 * root.tsx's early script: Back and Forward between the chat's own addresses are the page's business
 * alone. Remix's router is kept from them (it would ask the server which route serves a new address,
 * naming the conversation), and the page hears them as one event.
 */
export const ADDRESS_MOVES =
  `addEventListener('popstate',function(e){if(${CHAT_ADDRESS}.test(location.pathname)){` +
  `e.stopImmediatePropagation();dispatchEvent(new Event('${ADDRESS_EVENT}'));}});`;
