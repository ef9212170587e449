// Where passkeys can work (issue 46: passkey buttons appear only where they can): browsers bind a
// passkey to the page's host, which cannot be an IP address, and the server checks it against its
// own address (APP_URL, given to the page as the "passkey-origin" meta). Shared by the sign-in
// screen and Account > Passkeys; no passkey code is loaded for it.
import { useEffect, useState } from "react";

/** Said where the page is at an IP address (also the server's answer there: webauthn.server.ts). */
export const NOT_AT_AN_IP =
  "Passkeys need the web app at a domain name, such as https://chat.example.com or http://localhost:3000, not an IP address.";

const isIpHost = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith("[") || host.includes(":");

/** Why passkeys cannot work on this page, or null when they can. Only in the browser. */
export function passkeysUnavailable(): string | null {
  if (typeof window.PublicKeyCredential === "undefined" || !window.isSecureContext) return "This browser does not offer passkeys here.";
  const origin = document.querySelector<HTMLMetaElement>('meta[name="passkey-origin"]')?.content ?? "";
  if (origin && origin !== window.location.origin) return `Passkeys work when ChatCrypt is opened at ${origin}.`;
  if (isIpHost(window.location.hostname)) return NOT_AT_AN_IP;
  return null;
}

/** `passkeysUnavailable` once the page runs in the browser (undefined before: nothing is offered yet). */
export function usePasskeysUnavailable(): string | null | undefined {
  const [reason, setReason] = useState<string | null | undefined>(undefined);
  useEffect(() => setReason(passkeysUnavailable()), []);
  return reason;
}
