// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Single sign-on's settings (docs/decisions/0063-single-sign-on.md): the admin console's values
// (sso_settings, one row), each empty one falling back to its environment setting (OIDC_ISSUER,
// OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_NAME, OIDC_USERNAME_CLAIM, OIDC_ALLOWED_DOMAINS).
// "Require single sign-on" is the console's only, and the owner's only. The client secret is never
// answered back: the console learns only whether one is set.

const { badRequest, forbidden } = require(`${__hooks}/lib/errors.js`);

const ROW_ID = "ssosettings0001";
// (each setting's environment variable read by name, so that the compose file's checks find it)
const FIELDS = {
  issuer: { column: "issuer", env: () => $os.getenv("OIDC_ISSUER") },
  clientId: { column: "client_id", env: () => $os.getenv("OIDC_CLIENT_ID") },
  clientSecret: { column: "client_secret", env: () => $os.getenv("OIDC_CLIENT_SECRET") },
  name: { column: "name", env: () => $os.getenv("OIDC_NAME") },
  usernameClaim: { column: "username_claim", env: () => $os.getenv("OIDC_USERNAME_CLAIM") },
  allowedDomains: { column: "allowed_domains", env: () => $os.getenv("OIDC_ALLOWED_DOMAINS") },
};
const DEFAULT_NAME = "single sign-on";
const DEFAULT_USERNAME_CLAIM = "preferred_username";
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CLAIM = /^[A-Za-z0-9_.:-]{1,100}$/;
const REQUIRED_MESSAGE = "This workspace requires single sign-on.";
const SETTINGS = ["issuer", "client_id", "client_secret", "name", "username_claim", "allowed_domains", "required"];

/** @param {core.App} app */
function row(app) {
  try {
    return app.findRecordById("sso_settings", ROW_ID);
  } catch (_) {
    return null;
  }
}

/**
 * The settings in force.
 * @param {core.App} app
 */
function readSso(app) {
  const stored = row(app);
  /** @param {keyof typeof FIELDS} key */
  const value = (key) => (stored ? stored.getString(FIELDS[key].column) : "") || FIELDS[key].env() || "";
  const issuer = value("issuer").trim();
  const clientId = value("clientId").trim();
  return {
    issuer,
    clientId,
    clientSecret: value("clientSecret"),
    name: value("name").trim() || DEFAULT_NAME,
    usernameClaim: value("usernameClaim").trim() || DEFAULT_USERNAME_CLAIM,
    allowedDomains: domainsOf(value("allowedDomains")),
    enabled: issuer !== "" && clientId !== "",
    required: stored ? stored.getBool("required") : false,
  };
}

/** @param {string} text "example.com, example.org" */
function domainsOf(text) {
  return text
    .split(/[\s,]+/)
    .map((d) => d.trim().toLowerCase())
    .filter((d) => d !== "");
}

/** What the sign-in screen needs. @param {core.App} app */
function publicSso(app) {
  const s = readSso(app);
  return { enabled: s.enabled, name: s.name, required: s.enabled && s.required };
}

/** What the admin console shows: never the secret. @param {core.App} app */
function consoleSso(app) {
  const s = readSso(app);
  const { client_secret, ...shown } = inForce(s);
  return { ...shown, client_secret_set: client_secret !== "", enabled: s.enabled };
}

/**
 * @param {string} text
 * @returns {boolean} an https URL, or http on loopback (a provider on this machine)
 */
function isIssuerUrl(text) {
  const m = /^(https?):\/\/([^/?#\s@]+)(\/[^?#\s]*)?$/.exec(text);
  if (!m) return false;
  const host = m[2].replace(/:\d+$/, "");
  return m[1] === "https" || host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

/**
 * Checks the console's changes: {issuer?, client_id?, client_secret?, name?, username_claim?,
 * allowed_domains?, required?}; answers the columns to write.
 * @param {JsonObject} body
 */
function checkedChanges(body) {
  const unknown = Object.keys(body).find((key) => !SETTINGS.includes(key));
  if (unknown !== undefined) throw badRequest(`"${unknown.slice(0, 40)}" is not a setting of single sign-on.`);
  if (Object.keys(body).length === 0) throw badRequest("Send the settings to change.");
  /** @type {{ [column: string]: string | boolean }} */
  const out = {};
  /** @param {string} key @param {number} max */
  const text = (key, max) => {
    if (!(key in body)) return undefined;
    const v = body[key];
    if (typeof v !== "string" || v.length > max) throw badRequest(`${key} must be text of at most ${max} characters.`);
    return v.trim();
  };
  const issuer = text("issuer", 500);
  if (issuer !== undefined) {
    if (issuer !== "" && !isIssuerUrl(issuer)) throw badRequest("The issuer must be an https:// address.");
    out.issuer = issuer;
  }
  const clientId = text("client_id", 500);
  if (clientId !== undefined) out.client_id = clientId;
  const secret = text("client_secret", 1000);
  if (secret !== undefined && secret !== "") out.client_secret = secret;
  const name = text("name", 60);
  if (name !== undefined) out.name = name;
  const claim = text("username_claim", 100);
  if (claim !== undefined) {
    if (claim !== "" && !CLAIM.test(claim)) throw badRequest("The username claim must be a claim's name, such as preferred_username.");
    out.username_claim = claim;
  }
  const domains = text("allowed_domains", 2000);
  if (domains !== undefined) {
    const list = domainsOf(domains);
    const bad = list.find((d) => !DOMAIN.test(d));
    if (bad) throw badRequest(`"${bad}" is not a domain name.`);
    out.allowed_domains = list.join(", ");
  }
  if ("required" in body) {
    if (typeof body.required !== "boolean") throw badRequest("required must be true or false.");
    out.required = body.required;
  }
  return out;
}

/**
 * Saves the console's changes; answers the names of the settings that changed (never their values).
 * Only the owner turns "Require single sign-on" on or off, and only while sign-on works.
 * @param {core.App} txApp
 * @param {string} role the caller's role
 * @param {JsonObject} body
 */
function writeSso(txApp, role, body) {
  const changes = checkedChanges(body);
  let stored = row(txApp);
  if (!stored) {
    stored = new Record(txApp.findCollectionByNameOrId("sso_settings"));
    stored.set("id", ROW_ID);
  }
  const current = /** @type {core.Record} */ (stored);
  // The console sends its whole form as shown, values in force from the environment or the defaults
  // among them: a column left empty whose value in force is the one sent stays empty (it goes on
  // following its environment setting), and only a setting whose value in force changes is named.
  const before = inForce(readSso(txApp));
  const written = Object.keys(changes).filter(
    (column) => current.get(column) !== changes[column] && !(current.get(column) === "" && before[column] === changes[column]),
  );
  if (written.includes("required") && role !== "owner") throw forbidden("Only the owner can require single sign-on.");
  for (const column of written) current.set(column, changes[column]);
  txApp.save(current);
  const after = readSso(txApp);
  if (after.required && !after.enabled) {
    // (turning it off while it is required: people would be left with no way in)
    if (before.required === true && !written.includes("required")) {
      throw badRequest(
        'Untick "Require single sign-on" first: while it is required, people sign in only through the provider, which needs an issuer and a client id.',
      );
    }
    throw badRequest("Single sign-on needs an issuer and a client id before it can be required.");
  }
  const now = inForce(after);
  return written.filter((column) => now[column] !== before[column]);
}

/**
 * The settings in force by column, as the console shows and sends them (the secret too: compared, never answered).
 * @param {ReturnType<typeof readSso>} s
 * @returns {{ [column: string]: string | boolean }}
 */
function inForce(s) {
  return {
    issuer: s.issuer,
    client_id: s.clientId,
    client_secret: s.clientSecret,
    name: s.name === DEFAULT_NAME ? "" : s.name,
    username_claim: s.usernameClaim,
    allowed_domains: s.allowedDomains.join(", "),
    required: s.required,
  };
}

/**
 * A 403 for a password sign-in (or sign-up) while single sign-on is required, unless it is the owner's.
 * @param {core.App} app
 * @param {core.Record | null | undefined} user
 */
function refusePasswordWhenRequired(app, user) {
  const s = readSso(app);
  if (!s.enabled || !s.required) return;
  if (user) {
    try {
      if (app.findRecordById("profiles", user.id).getString("role") === "owner") return;
    } catch (_) {
      // no profile: refused like everyone
    }
  }
  throw forbidden(`${REQUIRED_MESSAGE} Use "Sign in with ${s.name}".`);
}

module.exports = { readSso, publicSso, consoleSso, writeSso, refusePasswordWhenRequired, isIssuerUrl };
