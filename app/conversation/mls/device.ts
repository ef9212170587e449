/**
 * A device's key packages (ADR 0015): made on first use, the public halves sent to the delivery service
 * (one-time ones and a last-resort one), the private halves kept on the device (sealed with the state
 * store's vault key) until a welcome arrives for one of them.
 */
import { base64UrlDecode, base64UrlEncode } from "~/crypto/bytes";
import { decodeKeyPackage, encodeKeyPackage, join, newKeyPackage, type DeviceKeyPackage } from "./mls";

/** How many one-time packages a device sends at a time. */
export const ONE_TIME_PACKAGES = 10;

export interface DevicePackages {
  oneTime: DeviceKeyPackage[];
  lastResort: DeviceKeyPackage;
}

export interface StoredPackage {
  public: string;
  init: string;
  hpke: string;
  signature: string;
}

export async function newDevicePackages(identity: string, count = ONE_TIME_PACKAGES): Promise<DevicePackages> {
  const oneTime = await Promise.all(Array.from({ length: count }, () => newKeyPackage(identity)));
  return { oneTime, lastResort: await newKeyPackage(identity) };
}

/** The body of POST /api/chat/mls/key-packages; `device` is 8 to 64 letters, digits, - or _. */
export const uploadBody = (device: string, packages: DevicePackages) => ({
  device,
  one_time: packages.oneTime.map((p) => base64UrlEncode(encodeKeyPackage(p))),
  last_resort: base64UrlEncode(encodeKeyPackage(packages.lastResort)),
});

/** A package as JSON for the device's sealed storage (private keys included: seal it before storing). */
export const storePackage = (p: DeviceKeyPackage): StoredPackage => ({
  public: base64UrlEncode(encodeKeyPackage(p)),
  init: base64UrlEncode(p.privatePackage.initPrivateKey),
  hpke: base64UrlEncode(p.privatePackage.hpkePrivateKey),
  signature: base64UrlEncode(p.privatePackage.signaturePrivateKey),
});

export const loadPackage = (s: StoredPackage): DeviceKeyPackage => ({
  publicPackage: decodeKeyPackage(base64UrlDecode(s.public)),
  privatePackage: {
    initPrivateKey: base64UrlDecode(s.init),
    hpkePrivateKey: base64UrlDecode(s.hpke),
    signaturePrivateKey: base64UrlDecode(s.signature),
  },
});

/** Joins from a welcome with whichever of the device's packages it was made for. */
export async function joinWithOwnPackage(welcome: Uint8Array, packages: DeviceKeyPackage[]) {
  for (const device of packages) {
    try {
      return { state: await join(welcome, device), used: device };
    } catch {
      // Not this package: the welcome carries no secrets for it.
    }
  }
  throw new Error("joinWithOwnPackage: the welcome is for none of this device's key packages");
}
