/**
 * The self-hosting package as the compose tests (compose-*.test.ts) read it: docker-compose.yml
 * parsed, and the Dockerfiles it builds.
 *
 * Docker cannot run on the CI machine, so the tests check the files' structure and their agreement
 * with the code, not that the images build or that the stack starts:
 *   - the services, the pb_data volume, health checks, restart policies, published ports
 *     (compose-services.test.ts);
 *   - every variable the code reads (app/server/env.server.ts and process.env in the web server,
 *     $os.getenv in pb_hooks/, os.Getenv in pocketbase/*.go) is documented in .env.example and
 *     reaches the container that reads it; every ${VAR} of the compose file is documented, and every
 *     setting in .env.example is used; the web service's environment, filled from .env.example,
 *     passes the app's own env schema (compose-settings.test.ts, with compose-env.ts);
 *   - the Dockerfiles exist and build from the pinned versions (Go 1.26, Node 20, PocketBase
 *     v0.39.11 in pocketbase/go.mod), and the translation image installs the same Apertium pairs
 *     as scripts/install-apertium.sh (compose-images.test.ts).
 * docs/operating.md describes installing with and without Docker.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const read = (file: string) => readFileSync(path.join(root, file), "utf8");

// ---- the compose file ------------------------------------------------------------------------

export interface Service {
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

export const compose = parse(read("docker-compose.yml")) as Compose;
export const services = compose.services;

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

export const composeVariables = new Set(strings(compose).flatMap(interpolated));

/** Compose's interpolation, for the forms this file uses. Required variables left empty get `required`. */
export function interpolate(text: string, vars: Record<string, string>, required: Record<string, string> = {}): string {
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

export function environmentOf(service: Service): Record<string, string> {
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

export function networksOf(service: Service): string[] {
  if (!service.networks) return ["default"];
  return Array.isArray(service.networks) ? service.networks : Object.keys(service.networks);
}

export function volumeMounts(service: Service): { source: string; target: string }[] {
  return (service.volumes ?? []).map((v) => {
    if (typeof v === "string") {
      const [source, target] = v.split(":");
      return { source, target };
    }
    return { source: v.source ?? "", target: v.target ?? "" };
  });
}

/** [host ip, host port, container port] of a short-syntax port entry, interpolated. */
export function portParts(entry: string, vars: Record<string, string>): [string, string, string] {
  const parts = interpolate(entry, vars).split(":");
  if (parts.length === 3) return [parts[0], parts[1], parts[2]];
  if (parts.length === 2) return ["0.0.0.0", parts[0], parts[1]];
  return ["0.0.0.0", "", parts[0]];
}

export function healthcheckText(service: Service): string {
  const test = service.healthcheck?.test;
  return Array.isArray(test) ? test.join(" ") : (test ?? "");
}
// ---- Dockerfiles -----------------------------------------------------------------------------

interface Instruction {
  op: string;
  args: string;
}
export interface Stage {
  from: string;
  instructions: Instruction[];
}

export function dockerfile(file: string): Stage[] {
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

export function envOfStage(stage: Stage): Record<string, string> {
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
export function execForm(stage: Stage, op: "CMD" | "ENTRYPOINT"): string[] {
  const last = stage.instructions.filter((i) => i.op === op).at(-1);
  if (!last) return [];
  return JSON.parse(last.args) as string[];
}

export function runs(stage: Stage): string {
  return stage.instructions
    .filter((i) => i.op === "RUN")
    .map((i) => i.args)
    .join("\n");
}

/** The Dockerfile a service builds from, relative to the repository root. */
export function dockerfileOf(service: Service): string {
  const build = service.build;
  if (!build) throw new Error("service has no build section");
  const context = typeof build === "string" ? build : (build.context ?? ".");
  const name = typeof build === "string" ? "Dockerfile" : (build.dockerfile ?? "Dockerfile");
  return path.normalize(path.join(context, name));
}
