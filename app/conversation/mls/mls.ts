/**
 * Sealed channels' MLS settings and the few operations every caller needs (docs/decisions/0015-sealed-channels-mls.md).
 * This module imports ts-mls; the page loads it only with a dynamic import, when a sealed channel is opened.
 */
import {
  createApplicationMessage,
  createCommit,
  createGroup,
  createGroupInfoWithExternalPubAndRatchetTree,
  decodeMlsMessage,
  defaultCapabilities,
  defaultAuthenticationService,
  defaultKeyPackageEqualityConfig,
  defaultLifetimeConfig,
  defaultPaddingConfig,
  defaultLifetime,
  emptyPskIndex,
  encodeMlsMessage,
  generateKeyPackage,
  generateKeyPackageWithKey,
  getCiphersuiteFromName,
  getCiphersuiteImpl,
  joinGroup,
  joinGroupExternal,
  mlsExporter,
  processPrivateMessage,
  processPublicMessage,
  zeroOutUint8Array,
  type Capabilities,
  type CiphersuiteImpl,
  type ClientConfig,
  type ClientState,
  type Credential,
  type Extension,
  type KeyPackage,
  type PrivateKeyPackage,
  type Proposal,
} from "ts-mls";

/**
 * Our group-context extension: a direct conversation's participant list (roster.ts), in the private-use
 * range (RFC 9420 §17.3). Every key package says it supports it, as MLS requires of every member.
 */
export const ROSTER_EXTENSION = 0xf0a1;

function capabilities(): Capabilities {
  const base = defaultCapabilities();
  return { ...base, extensions: [...base.extensions, ROSTER_EXTENSION] };
}

/** Ciphersuite 1: X25519, AES-128-GCM, SHA-256, Ed25519. */
export const CIPHERSUITE = "MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519" as const;

/**
 * No keys of past epochs are kept: once a device has moved to epoch N, nothing of earlier epochs can be
 * decrypted with its state (forward secrecy across epochs). The delivery service hands each device the
 * channel's messages and commits in one order, so a device never needs an earlier epoch's keys.
 * ts-mls 1.6.4 keeps every past epoch when told to keep 0 (`slice(-0)` in removeOldHistoricalReceiverData),
 * so the library keeps one and `forgetPastEpochs` drops it after every step.
 */
export const CLIENT_CONFIG: ClientConfig = {
  keyRetentionConfig: { retainKeysForGenerations: 10, retainKeysForEpochs: 1, maximumForwardRatchetSteps: 200 },
  lifetimeConfig: defaultLifetimeConfig,
  keyPackageEqualityConfig: defaultKeyPackageEqualityConfig,
  paddingConfig: defaultPaddingConfig,
  // Every leaf's credential goes through the check the page sets (identity.client.ts): its MLS
  // signature key must be signed by the user's identity key. Without one (Node tests), any is accepted.
  authService: { validateCredential: (credential, key) => credentialCheck.validateCredential(credential, key) },
};

let credentialCheck: { validateCredential(credential: Credential, signaturePublicKey: Uint8Array): Promise<boolean> } =
  defaultAuthenticationService;

/** Sets how leaves' credentials are checked, for every group of this page. */
export function setCredentialCheck(check: (credential: Credential, signaturePublicKey: Uint8Array) => Promise<boolean>) {
  credentialCheck = { validateCredential: check };
}

/** The state without the receiver secrets of earlier epochs. */
export const forgetPastEpochs = (state: ClientState): ClientState =>
  state.historicalReceiverData.size === 0 ? state : { ...state, historicalReceiverData: new Map() };

let suite: Promise<CiphersuiteImpl> | null = null;
export const ciphersuite = () => (suite ??= getCiphersuiteImpl(getCiphersuiteFromName(CIPHERSUITE)));

/** MLS-Exporter(label, context, length) of the state's epoch (RFC 9420 §8.5): a secret every member of the epoch shares. */
export async function exportSecret(state: ClientState, label: string, context: Uint8Array, length: number): Promise<Uint8Array> {
  return mlsExporter(state.keySchedule.exporterSecret, label, context, length, await ciphersuite());
}

export interface DeviceKeyPackage {
  publicPackage: KeyPackage;
  privatePackage: PrivateKeyPackage;
}

/** A key package for one device; `identity` names the device (user id and device id). */
export async function newKeyPackage(identity: string): Promise<DeviceKeyPackage> {
  return generateKeyPackage(
    { credentialType: "basic", identity: new TextEncoder().encode(identity) },
    capabilities(),
    defaultLifetime,
    [],
    await ciphersuite(),
  );
}

/**
 * A key package whose credential is made from its own signature public key (`identity(publicKey)`),
 * so the credential can carry a signature of that key by the user's identity key.
 */
export async function newBoundKeyPackage(identity: (signaturePublicKey: Uint8Array) => Promise<string>): Promise<DeviceKeyPackage> {
  const cs = await ciphersuite();
  const keys = await cs.signature.keygen();
  return generateKeyPackageWithKey(
    { credentialType: "basic", identity: new TextEncoder().encode(await identity(keys.publicKey)) },
    capabilities(),
    defaultLifetime,
    [],
    keys,
    cs,
  );
}

/** A new group (a sealed channel) with the creator's device as its only member, at epoch 0. */
export async function newGroup(groupId: string, creator: DeviceKeyPackage, extensions: Extension[] = []): Promise<ClientState> {
  return createGroup(
    new TextEncoder().encode(groupId),
    creator.publicPackage,
    creator.privatePackage,
    extensions,
    await ciphersuite(),
    CLIENT_CONFIG,
  );
}

/** Commits proposals (adds, removes, or none: a key update). The commit and welcome are sent encoded. */
export async function commit(state: ClientState, proposals: Proposal[] = []) {
  const result = await createCommit({ state, cipherSuite: await ciphersuite() }, { extraProposals: proposals, ratchetTreeExtension: true });
  result.consumed.forEach(zeroOutUint8Array);
  return {
    state: forgetPastEpochs(result.newState),
    commit: encodeMlsMessage(result.commit),
    welcome: result.welcome ? encodeMlsMessage({ welcome: result.welcome, wireformat: "mls_welcome", version: "mls10" }) : undefined,
  };
}

export const addProposal = (keyPackage: KeyPackage): Proposal => ({ proposalType: "add", add: { keyPackage } });
export const removeProposal = (leafIndex: number): Proposal => ({ proposalType: "remove", remove: { removed: leafIndex } });

/** Joins from a welcome (the ratchet tree travels in it). */
export async function join(welcome: Uint8Array, device: DeviceKeyPackage): Promise<ClientState> {
  const decoded = decodeMlsMessage(welcome, 0)?.[0];
  if (decoded?.wireformat !== "mls_welcome") throw new Error("not a welcome message");
  return joinGroup(
    decoded.welcome,
    device.publicPackage,
    device.privatePackage,
    emptyPskIndex,
    await ciphersuite(),
    undefined,
    undefined,
    CLIENT_CONFIG,
  );
}

/** Encrypts application data for the group's current epoch. */
export async function seal(state: ClientState, plaintext: Uint8Array) {
  const result = await createApplicationMessage(state, plaintext, await ciphersuite());
  result.consumed.forEach(zeroOutUint8Array);
  return {
    state: result.newState,
    message: encodeMlsMessage({ privateMessage: result.privateMessage, wireformat: "mls_private_message", version: "mls10" }),
  };
}

/**
 * Processes one message of the group (a commit or application data), in the delivery service's order.
 * Answers the new state and, for application data, the plaintext. Throws when it cannot be processed.
 */
export async function receive(state: ClientState, message: Uint8Array): Promise<{ state: ClientState; plaintext?: Uint8Array }> {
  const decoded = decodeMlsMessage(message, 0)?.[0];
  const cs = await ciphersuite();
  if (decoded?.wireformat === "mls_public_message") {
    // An external commit (a join or a rejoin): public, signed by the joiner.
    const result = await processPublicMessage(state, decoded.publicMessage, emptyPskIndex, cs);
    result.consumed.forEach(zeroOutUint8Array);
    return { state: forgetPastEpochs(result.newState) };
  }
  if (decoded?.wireformat !== "mls_private_message") throw new Error("not an MLS message");
  const result = await processPrivateMessage(state, decoded.privateMessage, emptyPskIndex, cs);
  result.consumed.forEach(zeroOutUint8Array);
  if (result.kind === "applicationMessage") return { state: forgetPastEpochs(result.newState), plaintext: result.message };
  return { state: forgetPastEpochs(result.newState) };
}

export const epochOf = (state: ClientState) => state.groupContext.epoch;

/** The key package as sent to the delivery service. */
export const encodeKeyPackage = (device: DeviceKeyPackage) =>
  encodeMlsMessage({ keyPackage: device.publicPackage, wireformat: "mls_key_package", version: "mls10" });

export function decodeKeyPackage(bytes: Uint8Array): KeyPackage {
  const decoded = decodeMlsMessage(bytes, 0)?.[0];
  if (decoded?.wireformat !== "mls_key_package") throw new Error("not a key package");
  return decoded.keyPackage;
}

/** The GroupInfo (with the external public key and the ratchet tree) that the delivery service keeps for external joins. */
export async function groupInfo(state: ClientState): Promise<Uint8Array> {
  const info = await createGroupInfoWithExternalPubAndRatchetTree(state, [], await ciphersuite());
  return encodeMlsMessage({ groupInfo: info, wireformat: "mls_group_info", version: "mls10" });
}

/** Joins (or rejoins, `resync`) by external commit from the stored GroupInfo. */
export async function externalJoin(info: Uint8Array, device: DeviceKeyPackage, resync = false) {
  const decoded = decodeMlsMessage(info, 0)?.[0];
  if (decoded?.wireformat !== "mls_group_info") throw new Error("not a GroupInfo");
  const cs = await ciphersuite();
  const result = await joinGroupExternal(
    decoded.groupInfo,
    device.publicPackage,
    device.privatePackage,
    resync,
    cs,
    undefined,
    CLIENT_CONFIG,
  );
  return {
    state: forgetPastEpochs(result.newState),
    commit: encodeMlsMessage({ publicMessage: result.publicMessage, wireformat: "mls_public_message", version: "mls10" }),
  };
}

/**
 * The epoch authenticator (RFC 9420 §8.7) as a short code members compare, for example in the members
 * panel: two groups of 5 digits from its first 5 bytes. Members in the same epoch of the same group
 * see the same code; a member shown a different group by the server sees a different one.
 */
export function epochCode(state: ClientState): string {
  let value = 0;
  for (const byte of state.keySchedule.epochAuthenticator.subarray(0, 5)) value = value * 256 + byte;
  const digits = String(value % 10_000_000_000).padStart(10, "0");
  return `${digits.slice(0, 5)} ${digits.slice(5)}`;
}
