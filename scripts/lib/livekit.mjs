// The LiveKit server that carries calls (docs/decisions/0030-calls-livekit.md): its settings from the
// environment, its API key and secret (made on first start, kept in the data directory with mode
// 0600, like the web session secret), and the configuration it runs with (written into the data
// directory at every start). Used by scripts/start.sh, scripts/supervise.mjs and the tests.
//
// Settings: LIVEKIT=off (no calls), LIVEKIT_PORT (signalling and API, default 7880), LIVEKIT_BIND
// (default 127.0.0.1), LIVEKIT_RTC_TCP_PORT (ICE over TCP, default 7881), LIVEKIT_UDP_PORTS (media:
// a range "50000-50100", or one port for a UDP mux), LIVEKIT_NODE_IP (the address put in ICE
// candidates; default the bind address, or 127.0.0.1 when bound to every interface),
// LIVEKIT_URL (the address browsers use, default ws://LIVEKIT_BIND:LIVEKIT_PORT),
// CALL_MAX_PARTICIPANTS (default 8).
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** The LiveKit settings from the environment, or null when LIVEKIT=off. */
export function livekitSettings(env, { root, dataDir }) {
  if ((env.LIVEKIT ?? "on").toLowerCase() === "off") return null;
  const bind = env.LIVEKIT_BIND || "127.0.0.1";
  const port = Number(env.LIVEKIT_PORT || 7880);
  const host = bind === "0.0.0.0" ? "127.0.0.1" : bind;
  return {
    binary: path.join(root, "bin", "livekit-server"),
    bind,
    port,
    rtcTcpPort: Number(env.LIVEKIT_RTC_TCP_PORT || 7881),
    udpPorts: env.LIVEKIT_UDP_PORTS || "50000-50100",
    nodeIp: env.LIVEKIT_NODE_IP || host,
    url: env.LIVEKIT_URL || `ws://${host}:${port}`,
    apiUrl: `http://${host}:${port}`,
    maxParticipants: Number(env.CALL_MAX_PARTICIPANTS || 8),
    keysFile: path.join(path.resolve(dataDir), ".livekit-keys.json"),
    configFile: path.join(path.resolve(dataDir), ".livekit.yaml"),
  };
}

/** The API key and secret: read from the data directory, or made there (mode 0600) on first start. */
export async function livekitKeys(settings) {
  if (existsSync(settings.keysFile)) return JSON.parse(await readFile(settings.keysFile, "utf8"));
  const keys = { apiKey: `chatcrypt-${randomBytes(6).toString("hex")}`, apiSecret: randomBytes(32).toString("base64url") };
  await writeFile(settings.keysFile, JSON.stringify(keys), { mode: 0o600, flag: "wx" });
  return keys;
}

/** Writes the server's configuration (mode 0600: it holds the secret) and returns its path. */
export async function writeLivekitConfig(settings, keys) {
  const [start, end] = settings.udpPorts.split("-").map(Number);
  const media = end ? [`  port_range_start: ${start}`, `  port_range_end: ${end}`] : [`  udp_port: ${start}`];
  const loopback = settings.nodeIp.startsWith("127.") || settings.nodeIp === "::1";
  const yaml = [
    "# Written at every start (scripts/lib/livekit.mjs): edit the environment instead.",
    `port: ${settings.port}`,
    "bind_addresses:",
    `  - ${JSON.stringify(settings.bind)}`,
    "rtc:",
    `  tcp_port: ${settings.rtcTcpPort}`,
    ...media,
    "  use_external_ip: false",
    `  node_ip: ${JSON.stringify(settings.nodeIp)}`,
    ...(loopback ? ["  enable_loopback_candidate: true"] : []),
    "room:",
    `  max_participants: ${settings.maxParticipants}`,
    "  empty_timeout: 60",
    "  departure_timeout: 10",
    "keys:",
    `  ${JSON.stringify(keys.apiKey)}: ${JSON.stringify(keys.apiSecret)}`,
    "logging:",
    "  level: warn",
    "",
  ].join("\n");
  await writeFile(settings.configFile, yaml, { mode: 0o600 });
  return settings.configFile;
}

/** What the web server needs to mint call tokens (LiveKit's address for browsers and for its API, the key pair). */
export const webEnvFor = (settings, keys) => ({
  LIVEKIT_URL: settings.url,
  LIVEKIT_API_URL: settings.apiUrl,
  LIVEKIT_API_KEY: keys.apiKey,
  LIVEKIT_API_SECRET: keys.apiSecret,
  CALL_MAX_PARTICIPANTS: String(settings.maxParticipants),
});

/** What PocketBase needs to read the call server's rooms, for the calls' records (pocketbase/call_records.go). */
export const pocketbaseEnvFor = (settings, keys) => ({
  LIVEKIT_API_URL: settings.apiUrl,
  LIVEKIT_API_KEY: keys.apiKey,
  LIVEKIT_API_SECRET: keys.apiSecret,
});
