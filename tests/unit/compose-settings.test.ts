/**
 * The compose stack's settings: every variable the code reads is documented in .env.example and
 * reaches the container that reads it, and the web service's environment passes the app's env
 * schema (compose-files.ts says what the compose tests check and why).
 */
import { describe, expect, it, vi } from "vitest";
import { envActive, envDeclared, envMentioned, pocketbaseVariables, unnamedReads, webVariables } from "./compose-env";
import { composeVariables, dockerfile, dockerfileOf, environmentOf, envOfStage, interpolate, services } from "./compose-files";

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
