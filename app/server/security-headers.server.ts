import { randomBytes } from "node:crypto";

export function createNonce() {
  return randomBytes(16).toString("base64");
}

/**
 * The enforced Content-Security-Policy of every document, plus the other security headers. `calls`:
 * the call server's origins (features/calls/csp.server.ts), which the page may also connect to.
 */
export function securityHeaders(nonce: string, development: boolean, calls: readonly string[] = []): Record<string, string> {
  const script = development ? `'self' 'nonce-${nonce}' 'unsafe-inline'` : `'self' 'nonce-${nonce}'`;
  // blob: lets the page read back the decrypted files it created itself (object URLs).
  const connect = [development ? "'self' blob: ws: wss:" : "'self' blob:", ...calls].join(" ");
  const style = development ? "'self' 'unsafe-inline'" : "'self'";
  const csp = [
    "default-src 'self'",
    `script-src ${script}`,
    `style-src ${style}`,
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    `connect-src ${connect}`,
    "font-src 'self'",
    // The service worker (/sw.js) and the web app manifest (ADR 25).
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    // Calls use the microphone, the camera and screen sharing (ADR 30).
    "Permissions-Policy": "microphone=(self), camera=(self), display-capture=(self), geolocation=()",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
}
