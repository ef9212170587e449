// The DevTools virtual authenticator (the stand-in for a platform passkey, with or without PRF).
import type { CDPSession, Page } from "@playwright/test";

export async function virtualAuthenticator(page: Page, hasPrf = false): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
      hasPrf,
    },
  });
  return { cdp, authenticatorId };
}
