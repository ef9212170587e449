/**
 * The self-hosting package: docker-compose.yml, the Dockerfiles it builds and .env.example.
 *
 * Docker cannot run on the CI machine, so this checks the files' structure and their agreement
 * with the code, not that the images build or that the stack starts:
 *   - the services, the pb_data volume, health checks, restart policies, published ports;
 *   - every variable the code reads (app/server/env.server.ts and process.env in the web server,
 *     $os.getenv in pb_hooks/, os.Getenv in pocketbase/*.go) is documented in .env.example and
 *     reaches the container that reads it; every ${VAR} of the compose file is documented, and every
 *     setting in .env.example is used;
 *   - the web service's environment, filled from .env.example, passes the app's own env schema;
 *   - the Dockerfiles exist and build from the pinned versions (Go 1.26, Node 20, PocketBase
 *     v0.39.11 in pocketbase/go.mod), and the translation image installs the same Apertium pairs
 *     as scripts/install-apertium.sh.
 * docs/operating.md describes installing with and without Docker.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it, vi } from "vitest";
import { parse } from "yaml";

const root = fileURLToPath(new URL("../../", import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

// ---- the compose file ------------------------------------------------------------------------

interface Service {
  build?: string | { context?: string; dockerfile?: string };
  image?: string;
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: (string | { target?: number; published?: string | number; host_ip?: string })[];
  expose?: (string | number)[];
  volumes?: (string | { type?: string; source?: string; target?: string })[];
  networks?: string[] | Record<string, unknown>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  restart?: string;
  profiles?: string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
}

interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
  networks?: Record<string, { internal?: boolean } | null>;
}

const compose = parse(read("docker-compose.yml")) as Compose;
const services = compose.services;

/** Every string in a parsed YAML value (keys too), comments excluded. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]);
  return [];
}

/** Names of the variables a compose string interpolates: ${NAME}, ${NAME:-default}, $NAME ($$ is a literal $). */
function interpolated(text: string): string[] {
  const names: string[] = [];
  const unescaped = text.replace(/\$\$/g, "");
  for (const m of unescaped.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) names.push(m[1]);
  for (const m of unescaped.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)) names.push(m[1]);
  return names;
}

const composeVariables = new Set(strings(compose).flatMap(interpolated));

/** Compose's interpolation, for the forms this file uses. Required variables left empty get `required`. */
function interpolate(text: string, vars: Record<string, string>, required: Record<string, string> = {}): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (_all, name: string, colon: string, op: string, arg: string) => {
      const value = vars[name];
      const missing = value === undefined || (colon === ":" && value === "");
      if (op === "-") return missing ? arg : value;
      if (op === "?") {
        if (!missing) return value;
        if (name in required) return required[name];
        throw new Error(`compose would refuse to start: ${name}: ${arg}`);
      }
      return value ?? "";
    },
  );
}

function environmentOf(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const i = entry.indexOf("=");
        return i < 0 ? [entry, ""] : [entry.slice(0, i), entry.slice(i + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? "" : String(v)]));
}

function networksOf(service: Service): string[] {
  if (!service.networks) return ["default"];
  return Array.isArray(service.networks) ? service.networks : Object.keys(service.networks);
}

function volumeMounts(service: Service): { source: string; target: string }[] {
  return (service.volumes ?? []).map((v) => {
    if (typeof v === "string") {
      const [source, target] = v.split(":");
      return { source, target };
    }
    return { source: v.source ?? "", target: v.target ?? "" };
  });
}

/** [host ip, host port, container port] of a short-syntax port entry, interpolated. */
function portParts(entry: string, vars: Record<string, string>): [string, string, string] {
  const parts = interpolate(entry, vars).split(":");
  if (parts.length === 3) return [parts[0], parts[1], parts[2]];
  if (parts.length === 2) return ["0.0.0.0", parts[0], parts[1]];
  return ["0.0.0.0", "", parts[0]];
}

function healthcheckText(service: Service): string {
  const test = service.healthcheck?.test;
  return Array.isArray(test) ? test.join(" ") : (test ?? "");
}

// ---- .env.example ----------------------------------------------------------------------------

const envExampleText = read(".env.example");
/** NAME=value lines: in effect. */
const envActive: Record<string, string> = {};
/** "# NAME=value" lines: optional settings, off unless uncommented. */
const envOptional = new Set<string>();
for (const line of envExampleText.split("\n")) {
  const active = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
  if (active) envActive[active[1]] = active[2];
  const optional = /^#\s?([A-Z][A-Z0-9_]*)=/.exec(line);
  if (optional) envOptional.add(optional[1]);
}
const envDeclared = new Set([...Object.keys(envActive), ...envOptional]);
/** Every upper-case name the file mentions, declared or described (e.g. the variables set by the images). */
const envMentioned = new Set(envExampleText.match(/\b[A-Z][A-Z0-9_]{2,}\b/g) ?? []);

// ---- what the code reads ---------------------------------------------------------------------

function filesUnder(dir: string, pattern: RegExp): string[] {
  const full = path.join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return filesUnder(rel, pattern);
    return pattern.test(name) ? [rel] : [];
  });
}

/** A JS or TS file's code with its comments removed, so that a comment naming a variable does not count. */
function codeOf(file: string): string {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, false, kind);
  return ts.createPrinter({ removeComments: true }).printFile(source);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Variables the web server reads: the zod schema of app/server/env.server.ts and process.env anywhere it runs. */
function webReads(): Map<string, string> {
  const found = new Map<string, string>();
  const schema = codeOf("app/server/env.server.ts");
  for (const m of schema.matchAll(/\b([A-Z][A-Z0-9_]*)\s*:\s*z\./g)) found.set(m[1], "app/server/env.server.ts");
  for (const file of ["server.mjs", ...filesUnder("server", /\.(mjs|js|ts)$/), ...filesUnder("app", /\.(ts|tsx)$/)]) {
    const code = codeOf(file);
    for (const m of code.matchAll(/\bprocess\.env\.([A-Za-z_][A-Za-z0-9_]*)/g)) found.set(m[1], file);
    for (const m of code.matchAll(/\bprocess\.env\[\s*(["'`])([A-Za-z_][A-Za-z0-9_]*)\1\s*\]/g)) found.set(m[2], file);
  }
  return found;
}

/**
 * Variables PocketBase reads: $os.getenv("X") in pb_hooks/ (also through small helpers such as
 * `function env(name) { return $os.getenv(name) ... }`, called as env("X")) and os.Getenv("X") in
 * pocketbase/*.go. A read this scan cannot name fails the test instead of going unnoticed.
 */
function pocketbaseReads(): { found: Map<string, string>; unnamed: string[] } {
  const found = new Map<string, string>();
  const unnamed: string[] = [];
  const hooks = filesUnder("pb_hooks", /\.js$/);
  // A helper defined in one library is called in the others that require it.
  const helpers = new Map<string, string>();
  const helperForms = [
    /function\s+([A-Za-z_$][\w$]*)\s*\(\s*([A-Za-z_$][\w$]*)[^)]*\)\s*\{[^{}]*?\$os\.getenv\(\s*\2\s*\)/g,
    /(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:function\s*)?\(?\s*([A-Za-z_$][\w$]*)[^)=]*\)?\s*(?:=>)?\s*\{?[^{}]*?\$os\.getenv\(\s*\2\s*\)/g,
  ];
  for (const file of hooks) for (const form of helperForms) for (const m of codeOf(file).matchAll(form)) helpers.set(m[1], m[2]);
  for (const file of hooks) {
    const code = codeOf(file);
    for (const m of code.matchAll(/\$os\.getenv\(\s*([^)]*?)\s*\)/g)) {
      const literal = /^(["'`])([A-Za-z_][A-Za-z0-9_]*)\1$/.exec(m[1]);
      if (literal) found.set(literal[2], file);
      else if (![...helpers.values()].includes(m[1])) unnamed.push(`${file}: $os.getenv(${m[1]})`);
    }
    for (const helper of helpers.keys()) {
      const calls = new RegExp(`(?<![\\w$.])${escapeRegExp(helper)}\\(\\s*([^,)]*)`, "g");
      for (const m of code.matchAll(calls)) {
        const literal = /^(["'`])([A-Za-z_][A-Za-z0-9_]*)\1$/.exec(m[1].trim());
        if (literal) found.set(literal[2], file);
        else if (m.index !== undefined && !/function\s+$/.test(code.slice(Math.max(0, m.index - 20), m.index))) {
          unnamed.push(`${file}: ${helper}(${m[1]})`);
        }
      }
    }
  }
  for (const file of filesUnder("pocketbase", /\.go$/).filter((f) => !f.endsWith("_test.go"))) {
    const code = read(file).replace(/(^|\s)\/\/.*$/gm, "$1");
    for (const m of code.matchAll(/\bos\.(?:Getenv|LookupEnv)\(\s*([^)]*?)\s*\)/g)) {
      const literal = /^"([A-Za-z_][A-Za-z0-9_]*)"$/.exec(m[1]);
      if (literal) found.set(literal[1], file);
      else unnamed.push(`${file}: os.Getenv(${m[1]})`);
    }
  }
  return { found, unnamed };
}

const webVariables = webReads();
const { found: pocketbaseVariables, unnamed: unnamedReads } = pocketbaseReads();

// ---- Dockerfiles -----------------------------------------------------------------------------

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  from: string;
  instructions: Instruction[];
}

function dockerfile(file: string): Stage[] {
  const lines = read(file).split("\n");
  const logical: string[] = [];
  let current = "";
  for (const raw of lines) {
    const line = raw.trim();
    if (line.startsWith("#") || (line === "" && current === "")) continue;
    if (line.endsWith("\\")) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    current += line;
    if (current.trim()) logical.push(current.trim());
    current = "";
  }
  const stages: Stage[] = [];
  for (const line of logical) {
    const m = /^(\S+)\s+([\s\S]*)$/.exec(line);
    if (!m) continue;
    const op = m[1].toUpperCase();
    if (op === "FROM") stages.push({ from: m[2].split(/\s+/)[0], instructions: [] });
    else stages.at(-1)?.instructions.push({ op, args: m[2] });
  }
  return stages;
}

function envOfStage(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { op, args } of stage.instructions) {
    if (op !== "ENV") continue;
    if (!args.includes("=")) {
      const [key, ...rest] = args.split(/\s+/);
      env[key] = rest.join(" ");
      continue;
    }
    for (const m of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|\S*)/g)) env[m[1]] = m[3] ?? m[2];
  }
  return env;
}

/** The exec-form array of the stage's last `op` (CMD or ENTRYPOINT). */
function execForm(stage: Stage, op: "CMD" | "ENTRYPOINT"): string[] {
  const last = stage.instructions.filter((i) => i.op === op).at(-1);
  if (!last) return [];
  return JSON.parse(last.args) as string[];
}

function runs(stage: Stage): string {
  return stage.instructions
    .filter((i) => i.op === "RUN")
    .map((i) => i.args)
    .join("\n");
}

/** The Dockerfile a service builds from, relative to the repository root. */
function dockerfileOf(service: Service): string {
  const build = service.build;
  if (!build) throw new Error("service has no build section");
  const context = typeof build === "string" ? build : (build.context ?? ".");
  const name = typeof build === "string" ? "Dockerfile" : (build.dockerfile ?? "Dockerfile");
  return path.normalize(path.join(context, name));
}

// ---- the tests -------------------------------------------------------------------------------

describe("services", () => {
  it('has pocketbase, web, livekit and translate; translate is optional, under the profile "translate"; web replicas and their proxy under "scale"', () => {
    expect(Object.keys(services).sort()).toEqual(["livekit", "pocketbase", "proxy", "translate", "web", "web-replicas"]);
    expect(services.livekit.profiles).toBeUndefined();
    expect(services.translate.profiles).toEqual(["translate"]);
    expect(services["web-replicas"].profiles).toEqual(["scale"]);
    expect(services.proxy.profiles).toEqual(["scale"]);
    expect(services.pocketbase.profiles).toBeUndefined();
    expect(services.web.profiles).toBeUndefined();
  });

  it("declares the pb_data volume and mounts it where PocketBase keeps its data", () => {
    expect(Object.keys(compose.volumes ?? {})).toContain("pb_data");
    expect(volumeMounts(services.pocketbase)).toContainEqual({ source: "pb_data", target: "/pb_data" });
    const serve = [...execForm(dockerfile(dockerfileOf(services.pocketbase)).at(-1)!, "CMD")];
    expect(serve[serve.indexOf("--dir") + 1]).toBe("/pb_data");
    // Only PocketBase holds data; the other services are stateless.
    expect(volumeMounts(services.web)).toEqual([]);
    expect(volumeMounts(services["web-replicas"])).toEqual([]);
    expect(volumeMounts(services.proxy)).toEqual([]);
    expect(volumeMounts(services.translate)).toEqual([]);
    expect(volumeMounts(services.livekit)).toEqual([]);
  });

  it.each(["pocketbase", "web", "translate", "web-replicas", "proxy"])("%s has a health check and a restart policy", (name) => {
    const service = services[name];
    expect(service.healthcheck?.disable).not.toBe(true);
    expect(healthcheckText(service)).not.toBe("");
    expect(["always", "unless-stopped"]).toContain(service.restart);
  });

  it("checks PocketBase at /api/health, the web app at /, and APy's pair list", () => {
    expect(healthcheckText(services.pocketbase)).toContain("http://127.0.0.1:8090/api/health");
    expect(healthcheckText(services.web)).toContain("http://127.0.0.1:3000/");
    expect(healthcheckText(services.translate)).toContain("http://127.0.0.1:2737/listPairs");
  });

  it("starts the web app once PocketBase is healthy", () => {
    const depends = services.web.depends_on;
    expect(depends && !Array.isArray(depends) ? depends.pocketbase?.condition : undefined).toBe("service_healthy");
  });
});

describe("network exposure", () => {
  it("binds PocketBase's port to 127.0.0.1 on the host only, whatever .env says", () => {
    const ports = services.pocketbase.ports ?? [];
    expect(ports.length).toBe(1);
    for (const entry of ports) {
      expect(typeof entry).toBe("string");
      expect(String(entry).startsWith("127.0.0.1:")).toBe(true);
      expect(portParts(String(entry), envActive)[2]).toBe("8090");
    }
  });

  it("publishes the web app's container port 3000, on the loopback address by default", () => {
    const ports = services.web.ports ?? [];
    expect(ports.length).toBe(1);
    const [hostIp, hostPort, containerPort] = portParts(String(ports[0]), envActive);
    expect(containerPort).toBe("3000");
    expect(hostPort).toBe(envActive.WEB_PORT);
    expect(hostIp).toBe("127.0.0.1");
    expect(portParts(String(ports[0]), {})[0]).toBe("127.0.0.1"); // the compose default as well
  });

  it("keeps the translation engine on an internal network shared with PocketBase only, with no published port", () => {
    expect(services.translate.ports ?? []).toEqual([]);
    expect(networksOf(services.translate)).toEqual(["translation"]);
    expect(compose.networks?.translation?.internal).toBe(true);
    const onTranslation = Object.entries(services)
      .filter(([, s]) => networksOf(s).includes("translation"))
      .map(([n]) => n);
    expect(onTranslation.sort()).toEqual(["pocketbase", "translate"]);
    expect(networksOf(services.web)).not.toContain("translation");
  });

  it("points the web app at the pocketbase service and PocketBase at the translate service", () => {
    const web = environmentOf(services.web);
    const pocketbase = environmentOf(services.pocketbase);
    expect(interpolate(web.PB_URL, envActive)).toBe("http://pocketbase:8090");
    expect(interpolate(web.PB_URL, {})).toBe("http://pocketbase:8090");
    expect(interpolate(pocketbase.APERTIUM_URL, envActive)).toBe("http://translate:2737");
    expect((services.translate.expose ?? []).map(String)).toContain("2737");
  });
});

describe("settings", () => {
  it("finds the variables the code is known to read (so the checks below are not vacuous)", () => {
    expect(unnamedReads).toEqual([]);
    for (const name of [
      "PB_URL",
      "SESSION_SECRET",
      "COOKIE_SECURE",
      "UPLOAD_MAX_MB",
      "NODE_ENV",
      "HOST",
      "PORT",
      "TRUST_PROXY",
      "WEB_PROCESSES",
    ]) {
      expect([...webVariables.keys()], name).toContain(name);
    }
    for (const name of [
      "TRANSLATE_PROVIDER",
      "APERTIUM_URL",
      "DEEPL_API_KEY",
      "SMTP_HOST",
      "SMTP_PASSWORD",
      "MAIL_FROM",
      "LINK_PREVIEW_ALLOW_HOSTS",
    ]) {
      expect([...pocketbaseVariables.keys()], name).toContain(name);
    }
  });

  it("documents every ${VAR} of the compose file in .env.example", () => {
    const undocumented = [...composeVariables].filter((name) => !envDeclared.has(name));
    expect(undocumented).toEqual([]);
  });

  it("uses every setting of .env.example in the compose file (COMPOSE_* are Compose's own)", () => {
    const unused = [...envDeclared].filter((name) => !composeVariables.has(name) && !name.startsWith("COMPOSE_"));
    expect(unused).toEqual([]);
  });

  it("documents every variable PocketBase reads, and passes each to the pocketbase service", () => {
    const passed = Object.keys(environmentOf(services.pocketbase));
    for (const [name, file] of pocketbaseVariables) {
      expect(envDeclared.has(name), `${name} (read in ${file}) is not in .env.example`).toBe(true);
      expect(passed, `${name} (read in ${file}) is not passed to the pocketbase service`).toContain(name);
    }
  });

  it.each(["web", "web-replicas"])("documents every variable the web app reads, and sets each for the %s containers", (service) => {
    const runtime = dockerfile(dockerfileOf(services[service])).at(-1)!;
    const set = new Set([...Object.keys(environmentOf(services[service])), ...Object.keys(envOfStage(runtime))]);
    for (const [name, file] of webVariables) {
      expect(envMentioned.has(name), `${name} (read in ${file}) is not in .env.example`).toBe(true);
      expect(set.has(name), `${name} (read in ${file}) is set neither in the compose file nor in the web image`).toBe(true);
    }
  });

  it("fills the web service's environment from .env.example into one the app's env schema accepts", async () => {
    const runtime = dockerfile(dockerfileOf(services.web)).at(-1)!;
    const secret = "s".repeat(48);
    const resolved: Record<string, string> = { ...envOfStage(runtime) };
    for (const [name, value] of Object.entries(environmentOf(services.web))) {
      resolved[name] = interpolate(value, envActive, { SESSION_SECRET: secret });
    }
    const names = new Set([...webVariables.keys(), ...Object.keys(resolved)]);
    const saved = new Map([...names].map((name) => [name, process.env[name]]));
    try {
      for (const name of names) {
        if (name in resolved) process.env[name] = resolved[name];
        else delete process.env[name];
      }
      vi.resetModules();
      const { env, publicEnv } = await import("../../app/server/env.server");
      const parsed = env();
      expect(parsed.NODE_ENV).toBe("production");
      expect(parsed.PB_URL).toBe("http://pocketbase:8090");
      expect(parsed.sessionSecret).toBe(secret);
      expect(parsed.COOKIE_SECURE).toBe("true");
      expect(publicEnv().uploadMaxBytes).toBe(Number(envActive.UPLOAD_MAX_MB) * 1024 * 1024);
      expect(resolved.TRUST_PROXY).toMatch(/^(\d+|false)$/);
      expect(resolved.HOST).toBe("0.0.0.0");
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      vi.resetModules();
    }
  });

  it("has no default session secret: compose refuses to start until .env sets one", () => {
    expect(environmentOf(services.web).SESSION_SECRET).toMatch(/^\$\{SESSION_SECRET:\?[^}]+\}$/);
    expect(envActive.SESSION_SECRET).toBe("");
    expect(() => interpolate(environmentOf(services.web).SESSION_SECRET, envActive)).toThrow(/SESSION_SECRET/);
  });
});

describe("the scale profile", () => {
  const replicas = services["web-replicas"];
  const proxy = services.proxy;

  it("runs the replicas from the web image with exactly the web service's settings, publishing no port", () => {
    expect(dockerfileOf(replicas)).toBe(dockerfileOf(services.web));
    expect(replicas.image).toBe(services.web.image);
    expect(environmentOf(replicas)).toEqual(environmentOf(services.web));
    expect(replicas.ports ?? []).toEqual([]);
    expect((replicas.expose ?? []).map(String)).toEqual(["3000"]);
    expect(healthcheckText(replicas)).toBe(healthcheckText(services.web));
    expect(networksOf(replicas)).toEqual(networksOf(services.web));
    const depends = replicas.depends_on;
    expect(depends && !Array.isArray(depends) ? depends.pocketbase?.condition : undefined).toBe("service_healthy");
    const deploy = (replicas as Service & { deploy?: { replicas?: string | number } }).deploy;
    expect(interpolate(String(deploy?.replicas), {})).toBe("2");
  });

  it("publishes the proxy on the loopback address by default, once every web container is healthy", () => {
    const ports = proxy.ports ?? [];
    expect(ports.length).toBe(1);
    expect(portParts(String(ports[0]), {})).toEqual(["127.0.0.1", "8080", "8080"]);
    expect(portParts(String(ports[0]), envActive)[0]).toBe("127.0.0.1");
    const depends = proxy.depends_on;
    expect(depends && !Array.isArray(depends) ? depends.web?.condition : undefined).toBe("service_healthy");
    expect(depends && !Array.isArray(depends) ? depends["web-replicas"]?.condition : undefined).toBe("service_healthy");
    expect(networksOf(proxy)).not.toContain("translation");
    expect(healthcheckText(proxy)).toContain("http://127.0.0.1:8080/");
  });

  it("builds nginx with a configuration that balances over web and its replicas with the tested proxy settings", () => {
    const stage = dockerfile(dockerfileOf(proxy)).at(-1)!;
    expect(stage.from).toMatch(/^nginx:/);
    const copies = stage.instructions.filter((i) => i.op === "COPY").map((i) => i.args);
    expect(copies).toEqual(["nginx.conf /etc/nginx/nginx.conf", "chatcrypt-locations.conf /etc/nginx/chatcrypt-locations.conf"]);
    const conf = read("deploy/nginx/nginx.conf");
    const upstream = /upstream\s+chatcrypt_web\s*\{([^}]*)\}/.exec(conf)?.[1] ?? "";
    expect(upstream.match(/server\s+\S+;/g)).toEqual(["server web:3000;", "server web-replicas:3000;"]);
    expect(conf).toMatch(/listen 8080;/);
    expect(conf).toMatch(/set \$chatcrypt_backend chatcrypt_web;/);
    expect(conf).toMatch(/include \/etc\/nginx\/chatcrypt-locations\.conf;/);
    // tests/integration/nginx.test.ts runs these location settings in a real nginx
    const locations = read("deploy/nginx/chatcrypt-locations.conf");
    expect(locations).toMatch(/location = \/api\/events \{[^}]*proxy_buffering off;[^}]*\}/);
    expect(read("tests/integration/nginx.test.ts")).toContain('"chatcrypt-locations.conf"');
  });
});

describe("images", () => {
  it("builds every service from a Dockerfile in this repository", () => {
    for (const [name, service] of Object.entries(services)) {
      expect(existsSync(path.join(root, dockerfileOf(service))), `${name}: ${dockerfileOf(service)}`).toBe(true);
    }
    expect(dockerfileOf(services.pocketbase)).toBe(path.normalize("pocketbase/Dockerfile"));
    expect(dockerfileOf(services.web)).toBe("Dockerfile");
  });

  it("builds PocketBase with Go 1.26 (GOTOOLCHAIN=local, CGO_ENABLED=0) from the pinned module v0.39.11", () => {
    const stages = dockerfile(dockerfileOf(services.pocketbase));
    const [builder, runtime] = [stages[0], stages.at(-1)!];
    expect(builder.from).toMatch(/^golang:1\.26(-|$)/);
    expect(envOfStage(builder)).toMatchObject({ GOTOOLCHAIN: "local", CGO_ENABLED: "0" });
    expect(runs(builder)).toMatch(/\bgo build\b/);
    expect(runtime.from).not.toMatch(/^golang:/);
    expect(stages.length).toBeGreaterThanOrEqual(2);

    const goMod = read("pocketbase/go.mod");
    expect(/^go (\d+\.\d+)/m.exec(goMod)?.[1]).toBe("1.26");
    expect(goMod).toMatch(/^\s*github\.com\/pocketbase\/pocketbase v0\.39\.11$/m);
  });

  it("copies the migrations and hooks into PocketBase's image and serves them as production needs", () => {
    const runtime = dockerfile(dockerfileOf(services.pocketbase)).at(-1)!;
    const copies = runtime.instructions.filter((i) => i.op === "COPY").map((i) => i.args);
    expect(copies).toContain("pb_migrations /pb_migrations");
    expect(copies).toContain("pb_hooks /pb_hooks");
    expect(services.pocketbase.command).toBeUndefined();
    expect(services.pocketbase.entrypoint).toBeUndefined();
    expect(execForm(runtime, "CMD")).toEqual([
      "serve",
      "--http",
      "0.0.0.0:8090",
      "--dir",
      "/pb_data",
      "--migrationsDir",
      "/pb_migrations",
      "--hooksDir",
      "/pb_hooks",
      "--hooksWatch=false",
      "--automigrate=false",
    ]);
    expect(execForm(runtime, "ENTRYPOINT")[0]).toMatch(/pocketbase$/);
  });

  it("builds the web app on Node 20 and runs node server.mjs in production mode on 0.0.0.0:3000", () => {
    const stages = dockerfile(dockerfileOf(services.web));
    for (const stage of stages) expect(stage.from).toMatch(/^node:20(-|$)/);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(runs(stages[0])).toMatch(/\bnpm install\b/);
    expect(runs(stages[0])).toMatch(/\bnpx remix vite:build\b/);
    const runtime = stages.at(-1)!;
    expect(envOfStage(runtime)).toMatchObject({ NODE_ENV: "production", HOST: "0.0.0.0", PORT: "3000" });
    expect(execForm(runtime, "CMD")).toEqual(["node", "server.mjs"]);
    expect(JSON.parse(read("package.json")).engines.node).toBe(">=20");
  });

  it("installs APy and the same Apertium pairs as scripts/install-apertium.sh, on Debian 12", () => {
    const [stage] = dockerfile(dockerfileOf(services.translate));
    expect(stage.from).toMatch(/^debian:(12|bookworm)(-|$)/);
    const script = /packages=\(([\s\S]*?)\)/.exec(read("scripts/install-apertium.sh"))?.[1] ?? "";
    const wanted = script.split(/\s+/).filter(Boolean);
    expect(wanted).toContain("apertium-apy");
    const installed = runs(stage).match(/\bapertium-[a-z-]+/g) ?? [];
    expect(new Set(installed)).toEqual(new Set(wanted));
    // APERTIUM_MAX_IDLE_SECS from the compose file reaches APy's command line.
    expect(Object.keys(environmentOf(services.translate))).toContain("APERTIUM_MAX_IDLE_SECS");
    expect(execForm(stage, "CMD").join(" ")).toContain("$APERTIUM_MAX_IDLE_SECS");
    expect(execForm(stage, "CMD").join(" ")).toContain("--port 2737");
  });

  it("keeps data, secrets and local builds out of the build context", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    for (const entry of [".git", ".env", "node_modules", "pb_data", "build", "bin"]) expect(ignored).toContain(entry);
  });
});
