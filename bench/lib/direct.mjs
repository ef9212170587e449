// Direct conversations as the page makes them (ADR 19), for bench/direct.mjs: the page's MLS building
// blocks bundled as the browser gets them, participants whose devices sent key packages, and one
// conversation created with its first message read on every other device.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { signUpFull } from "./chat.mjs";

const b64 = (bytes) => Buffer.from(bytes).toString("base64url");
const bytes = (text) => new Uint8Array(Buffer.from(text, "base64url"));

/** The page's MLS building blocks, bundled as the browser gets them. */
export async function loadMls(root, tmp) {
  const entry = path.join(tmp, "direct-entry.ts");
  const out = path.join(tmp, "direct.mjs");
  const from = (file) => JSON.stringify(path.join(root, "app", "conversation", "mls", file));
  writeFileSync(
    entry,
    `export * from ${from("mls.ts")};\nexport * from ${from("roster.ts")};\nexport { deviceCredential, credentialHolds } from ${from("identity.ts")};\n`,
  );
  execFileSync(path.join(root, "node_modules", ".bin", "esbuild"), [
    entry,
    "--bundle",
    "--format=esm",
    "--platform=node",
    "--target=node20",
    `--tsconfig=${path.join(root, "tsconfig.json")}`,
    `--outfile=${out}`,
    "--log-level=warning",
  ]);
  return import(pathToFileURL(out).href);
}

/** A signed-up user with two devices, each of which has sent a pool of key packages. */
export async function participant(mls, c, stack, tag) {
  const client = await signUpFull(c, stack.webUrl, { username: `dm${tag}`, email: `dm${tag}@example.test`, password: `pw-${tag}-long` });
  const devices = [];
  for (const name of ["one", "two"]) {
    const device = `${tag}-${name}`.replace(/[^A-Za-z0-9_-]/g, "").padEnd(8, "x");
    const make = () =>
      mls.newBoundKeyPackage((key) => mls.deviceCredential(client.keys.rsaPrivateKey, { userId: client.user.id, device }, key));
    const pool = await Promise.all([make(), make()]);
    await client.api("/api/key-packages", {
      device,
      oneTime: [b64(mls.encodeKeyPackage(pool[0]))],
      lastResort: b64(mls.encodeKeyPackage(pool[1])),
    });
    devices.push({ device, pool });
  }
  return { client, devices };
}

export async function createOnce(mls, c, stack, people, run) {
  const [creator, ...others] = people;
  const alice = creator.client;
  const ids = others.map((p) => p.client.user.id);
  let t0 = performance.now();
  const { id } = await alice.api("/api/direct", {
    id: c.randomUuid(),
    // a group's name lives sealed in its MLS group (ADR 50), not in this request
    participants: ids,
  });
  // People who share no channel get a request (ADR 52): each accepts it here, not counted in the figures
  const accepting = performance.now();
  for (const other of others) await other.client.api(`/api/direct/${id}/answer`, { answer: "accept" });
  t0 += performance.now() - accepting;
  const roster = await mls.signRoster(alice.keys.rsaPrivateKey, id, 1, [alice.user.id, ...ids], alice.user.id);
  let state = await mls.newGroup(id, creator.devices[0].pool[0], [mls.rosterExtension(roster)]);
  await alice.api(`/api/sealed/${id}/group`, { groupInfo: b64(await mls.groupInfo(state)) });
  const packages = [];
  for (const person of people) {
    const { key_packages } = await alice.api("/api/key-packages/claim", { userId: person.client.user.id, channelId: id });
    for (const claimed of key_packages) {
      if (person === creator && claimed.device === creator.devices[0].device) continue;
      const keyPackage = mls.decodeKeyPackage(bytes(claimed.data));
      const leaf = keyPackage.leafNode;
      if (!(await mls.credentialHolds(leaf.credential.identity, leaf.signaturePublicKey, person.client.keys.rsaPublicKey)))
        throw new Error("a claimed key package is not bound to its user");
      packages.push(keyPackage);
    }
  }
  const made = await mls.commit(state, packages.map(mls.addProposal));
  state = made.state;
  await alice.api(`/api/sealed/${id}/commits`, {
    epoch: 0,
    commit: b64(made.commit),
    groupInfo: b64(await mls.groupInfo(state)),
    welcome: b64(made.welcome),
  });
  const text = `first message ${run}`;
  const sealed = await mls.seal(state, new TextEncoder().encode(text));
  await alice.api(`/api/channels/${id}/messages`, {
    encryptedContent: b64(sealed.message),
    senderPublicKey: alice.user.ecdhPublicKey,
    epoch: 1,
  });
  const creatorMs = performance.now() - t0;

  // Every other device: its Welcome, the message, opened. (The creator's second device included.)
  const readers = [
    ...creator.devices.slice(1).map((d) => ({ client: alice, device: d })),
    ...others.flatMap((p) => p.devices.map((d) => ({ client: p.client, device: d }))),
  ];
  let slowest = 0;
  for (const reader of readers) {
    const t = performance.now();
    const { welcomes } = await reader.client.api(`/api/sealed/${id}/welcomes`);
    let joined = null;
    for (const w of welcomes) for (const kp of reader.device.pool) joined ??= await mls.join(bytes(w.data), kp).catch(() => null);
    if (!joined) throw new Error("a device found no Welcome for its key packages");
    const { messages } = await reader.client.api(`/api/channels/${id}/messages?epoch=1&limit=50&page=1`);
    const opened = await mls.receive(joined, bytes(messages[0].encryptedContent));
    if (new TextDecoder().decode(opened.plaintext) !== text) throw new Error("the first message did not open");
    slowest = Math.max(slowest, performance.now() - t);
  }
  return { total: performance.now() - t0, creatorMs, slowest, devices: readers.length + 1, id, state };
}
