// Whether a first single sign-on sets up encryption with a passkey first (ADR 81): where passkeys work
// at this address and the browser has a platform authenticator that verifies the person, with the PRF
// extension (a browser that does not say is asked: the passkey step then learns whether PRF came back).
import { useEffect, useState } from "react";
import { passkeysUnavailable } from "~/features/passkeys/where";

type Capabilities = Record<string, boolean | undefined>;
type WithCapabilities = typeof PublicKeyCredential & { getClientCapabilities?: () => Promise<Capabilities> };

export async function platformPasskeyWithPrf(): Promise<boolean> {
  if (passkeysUnavailable() !== null) return false;
  try {
    if (!(await PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable())) return false;
    const capabilities = await (PublicKeyCredential as WithCapabilities).getClientCapabilities?.();
    return capabilities?.["extension:prf"] !== false;
  } catch {
    return false;
  }
}

/** `platformPasskeyWithPrf` once the page runs in the browser (undefined until it is known). */
export function usePasskeyFirst(): boolean | undefined {
  const [first, setFirst] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void platformPasskeyWithPrf().then((answer) => live && setFirst(answer));
    return () => {
      live = false;
    };
  }, []);
  return first;
}
