// Test toolkit: a real SMTP server on a free loopback port (npm smtp-server) that accepts every
// message and keeps it, raw and simply parsed, for the test to inspect. No TLS: STARTTLS is
// switched off, so clients send in plain text on loopback.

import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  /** Envelope sender (MAIL FROM). */
  mailFrom: string;
  /** Envelope recipients (RCPT TO), the addresses the mail was actually delivered to. */
  rcptTo: string[];
  /** The SMTP user the client signed in as, if it did. */
  authUser?: string;
  /** The whole message source as received. */
  raw: string;
  /** Top-level headers, lower-case names, encoded words decoded. */
  headers: Record<string, string>;
  subject: string;
  from: string;
  to: string;
  /** The decoded text/plain and text/html parts ("" when absent). */
  text: string;
  html: string;
}

export interface CaptureServer {
  host: string;
  port: number;
  mails: CapturedMail[];
  /** The mails delivered to an address (envelope recipients, case-insensitive). */
  mailsTo(address: string): CapturedMail[];
  stop(): Promise<void>;
}

export interface CaptureOptions {
  /** Require SMTP AUTH with these credentials (PLAIN or LOGIN, allowed without TLS). */
  credentials?: { username: string; password: string };
}

// ---------------------------------------------------------------------------------------------
// A small MIME reader: enough for the messages PocketBase's mailer writes (multipart/mixed and
// multipart/alternative with quoted-printable or base64 text parts).

interface Part {
  headers: Record<string, string>;
  body: string;
}

function splitPart(source: string): Part {
  const normalized = source.replace(/\r\n/g, "\n");
  const end = normalized.indexOf("\n\n");
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? "" : normalized.slice(end + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) {
      const name = line.slice(0, colon).trim().toLowerCase();
      headers[name] = decodeEncodedWords(line.slice(colon + 1).trim());
    }
  }
  return { headers, body };
}

/** RFC 2047 encoded words: =?UTF-8?Q?...?= and =?UTF-8?B?...?= */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_match, _charset: string, encoding: string, text: string) => {
      if (encoding.toUpperCase() === "B") {
        return Buffer.from(text, "base64").toString("utf8");
      }
      return decodeQuotedPrintable(text.replace(/_/g, " "));
    });
}

export function decodeQuotedPrintable(value: string): string {
  const withoutSoftBreaks = value.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < withoutSoftBreaks.length; i++) {
    const char = withoutSoftBreaks[i];
    const hex = withoutSoftBreaks.slice(i + 1, i + 3);
    if (char === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeBody(part: Part): string {
  const encoding = (part.headers["content-transfer-encoding"] ?? "").toLowerCase();
  if (encoding === "quoted-printable") {
    return decodeQuotedPrintable(part.body);
  }
  if (encoding === "base64") {
    return Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8");
  }
  return part.body;
}

/** Every leaf part of a message, depth first. */
function leafParts(part: Part): Part[] {
  const contentType = part.headers["content-type"] ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!/^multipart\//i.test(contentType) || !boundary) {
    return [part];
  }
  const sections = part.body.split(`--${boundary}`).slice(1);
  const leaves: Part[] = [];
  for (const section of sections) {
    if (section.startsWith("--")) {
      break; // closing delimiter
    }
    leaves.push(...leafParts(splitPart(section.replace(/^\n/, ""))));
  }
  return leaves;
}

export function parseMail(raw: string): Pick<CapturedMail, "headers" | "subject" | "from" | "to" | "text" | "html"> {
  const message = splitPart(raw);
  let text = "";
  let html = "";
  for (const leaf of leafParts(message)) {
    const contentType = (leaf.headers["content-type"] ?? "text/plain").toLowerCase();
    if (contentType.startsWith("text/plain") && text === "") {
      text = decodeBody(leaf);
    } else if (contentType.startsWith("text/html") && html === "") {
      html = decodeBody(leaf);
    }
  }
  return {
    headers: message.headers,
    subject: message.headers.subject ?? "",
    from: message.headers.from ?? "",
    to: message.headers.to ?? "",
    text,
    html,
  };
}

// ---------------------------------------------------------------------------------------------

export async function startCaptureServer(options: CaptureOptions = {}): Promise<CaptureServer> {
  const mails: CapturedMail[] = [];
  const credentials = options.credentials;

  const server = new SMTPServer({
    authOptional: !credentials,
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    logger: false,
    size: 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.username && auth.password === credentials.password) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error("Invalid username or password"));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        mails.push({
          mailFrom,
          rcptTo: session.envelope.rcptTo.map((recipient) => recipient.address),
          authUser: typeof session.user === "string" ? session.user : undefined,
          raw,
          ...parseMail(raw),
        });
        callback();
      });
    },
  });

  const host = "127.0.0.1";
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });

  return {
    host,
    port,
    mails,
    mailsTo: (address) => mails.filter((mail) => mail.rcptTo.some((recipient) => recipient.toLowerCase() === address.toLowerCase())),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
