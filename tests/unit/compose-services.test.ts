/**
 * docker-compose.yml: its services, the pb_data volume, health checks, restart policies, what is
 * published on which address, and the scale profile (compose-files.ts says what the compose tests
 * check and why).
 */
import { describe, expect, it } from "vitest";
import { envActive } from "./compose-env";
import {
  compose,
  dockerfile,
  dockerfileOf,
  environmentOf,
  execForm,
  healthcheckText,
  interpolate,
  networksOf,
  portParts,
  read,
  services,
  volumeMounts,
  type Service,
} from "./compose-files";

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
