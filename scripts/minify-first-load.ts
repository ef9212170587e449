import type { Plugin } from "vite";
import { minify } from "terser";

/**
 * The scripts every page loads, minified once more with terser after esbuild (ADR 38): the browser's
 * entry and the route modules, and what they import statically. Terser takes about 4 % off their
 * gzip size (some 6 KB of the first load) where esbuild has stopped; the chunks loaded lazily (the
 * call and Markdown code, the MLS library, dialogs) stay with esbuild alone, which keeps the build
 * quick: terser over all of them would take about four times as long as the whole build.
 */
type Chunk = { imports: string[]; modules: Record<string, unknown> };

/** The chunks `from` import statically, with themselves. */
function closure(chunks: Map<string, Chunk>, from: string[]): Set<string> {
  const queue = [...from];
  const found = new Set(queue);
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    for (const imported of chunks.get(name)?.imports ?? []) {
      if (!found.has(imported) && chunks.has(imported)) {
        found.add(imported);
        queue.push(imported);
      }
    }
  }
  return found;
}

/** Libraries no page needs before it is drawn: request schemas are checked on the server. */
const LAZY_ONLY = ["zod"];

export function minifyFirstLoad(): Plugin {
  let client = false;
  return {
    name: "chatcrypt:minify-first-load",
    apply: "build",
    enforce: "post",
    configResolved(config) {
      client = !config.build.ssr;
    },
    async generateBundle(_options, bundle) {
      if (!client) return;
      const chunks = new Map(Object.values(bundle).flatMap((item) => (item.type === "chunk" ? [[item.fileName, item] as const] : [])));
      const eager = closure(
        chunks,
        [...chunks.values()].filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName),
      );
      // What the workspace's page loads before it is drawn: the browser's entry, the root and "/" routes.
      const page = [...chunks.values()].filter((chunk) =>
        /(entry\.client|\/root|\/routes\/_index)\.tsx(\?|$)/.test(chunk.facadeModuleId ?? ""),
      );
      for (const name of closure(
        chunks,
        page.map((chunk) => chunk.fileName),
      )) {
        const heavy = Object.keys(chunks.get(name)!.modules).find((id) => LAZY_ONLY.some((lib) => id.includes(`/node_modules/${lib}/`)));
        if (heavy) this.error(`${heavy} is in the workspace's first load (${name}): import it from a module loaded later (ADR 38).`);
      }
      for (const name of eager) {
        const chunk = chunks.get(name);
        if (!chunk) continue;
        // (two passes; a property read whose value is unused may go: ADR 38, addendum)
        const result = await minify(chunk.code, { module: true, ecma: 2020, compress: { passes: 2, pure_getters: true } });
        if (result.code === undefined) throw new Error(`terser returned nothing for ${name}`);
        chunk.code = result.code;
      }
    },
  };
}
