import { createECDH, createPublicKey, randomBytes, verify } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
// @ts-expect-error http_ece ships no types
import ece from "http_ece";

/**
 * A push service stand-in on loopback (no real one is reachable here): it checks each push the way a
 * browser vendor's push service does (RFC 8292 VAPID: the ES256 JWT's signature against the `k` key,
 * its audience and expiry; RFC 8030 headers) and, holding the subscription's private keys as the
 * browser would, decrypts the RFC 8291 payload so a test can read what the browser would get.
 */
export interface ReceivedPush {
  subscription: string;
  payload: string;
  topic: string | undefined;
  urgency: string | undefined;
  ttl: number;
  vapidKey: string;
  at: number;
}

export interface StandInSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const b64u = (b: Buffer) => b.toString("base64url");

function checkVapid(header: string | undefined, origin: string): { key: string } | string {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match) return "no vapid authorization";
  const [, jwt, key] = match;
  const [head, claims, signature] = jwt.split(".");
  if (!head || !claims || !signature) return "malformed jwt";
  const point = Buffer.from(key, "base64url");
  if (point.length !== 65 || point[0] !== 4) return "k is not an uncompressed P-256 point";
  const publicKey = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) },
    format: "jwk",
  });
  const signed = verify(
    "sha256",
    Buffer.from(`${head}.${claims}`),
    { key: publicKey, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!signed) return "bad jwt signature";
  const { alg } = JSON.parse(Buffer.from(head, "base64url").toString()) as { alg?: string };
  const body = JSON.parse(Buffer.from(claims, "base64url").toString()) as { aud?: string; exp?: number; sub?: string };
  if (alg !== "ES256") return "jwt alg is not ES256";
  if (body.aud !== origin) return `jwt aud ${body.aud} is not ${origin}`;
  const now = Date.now() / 1000;
  if (typeof body.exp !== "number" || body.exp < now || body.exp > now + 24 * 3600) return "jwt exp out of range";
  if (!/^(mailto:|https:)/.test(body.sub ?? "")) return "jwt sub is not mailto: or https:";
  return { key };
}

const json = (res: http.ServerResponse, value: unknown) =>
  res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(value));

export async function startPushService() {
  const secrets = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>();
  const gone = new Set<string>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      // What a test in another process asks of it: a new subscription, the pushes one received.
      if (req.method === "POST" && req.url === "/subscriptions") return json(res, subscribe());
      const asked = /^\/subscriptions\/([A-Za-z0-9_-]+)\/pushes$/.exec(req.url ?? "")?.[1];
      if (req.method === "GET" && asked)
        return json(
          res,
          received.filter((p) => p.subscription === asked),
        );
      const id = /^\/push\/([A-Za-z0-9_-]+)$/.exec(req.url ?? "")?.[1] ?? "";
      const refuse = (status: number, why: string) => {
        refused.push(why);
        res.writeHead(status).end(why);
      };
      if (req.method !== "POST" || !secrets.has(id)) return refuse(404, "no such subscription");
      if (gone.has(id)) return refuse(410, "subscription expired");
      const vapid = checkVapid(req.headers.authorization, origin);
      if (typeof vapid === "string") return refuse(401, vapid);
      if (req.headers["content-encoding"] !== "aes128gcm") return refuse(400, "not aes128gcm");
      const ttl = Number(req.headers.ttl);
      if (!Number.isInteger(ttl) || ttl < 0) return refuse(400, "no TTL");
      const body = Buffer.concat(chunks);
      if (body.length > 4096) return refuse(413, "payload too large");
      const { ecdh, auth } = secrets.get(id)!;
      let payload: string;
      try {
        payload = (ece.decrypt(body, { version: "aes128gcm", privateKey: ecdh, authSecret: b64u(auth) }) as Buffer).toString("utf8");
      } catch (error) {
        return refuse(400, `undecryptable: ${String(error)}`);
      }
      const topic = req.headers.topic as string | undefined;
      received.push({
        subscription: id,
        payload,
        topic,
        urgency: req.headers.urgency as string | undefined,
        ttl,
        vapidKey: vapid.key,
        at: Date.now(),
      });
      res.writeHead(201).end();
    });
  });
  /** A new subscription, as a browser's PushManager.subscribe would give it. */
  function subscribe(): StandInSubscription {
    const id = randomBytes(12).toString("base64url");
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16);
    secrets.set(id, { ecdh, auth });
    return { id, endpoint: `${origin}/push/${id}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } };
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    host: new URL(origin).host,
    received,
    refused,
    subscribe,
    /** From now on the service answers 410 Gone for the subscription (the browser unsubscribed). */
    expire: (id: string) => void gone.add(id),
    pushesFor: (id: string) => received.filter((p) => p.subscription === id),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
