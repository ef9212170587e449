import type { Plugin } from "vite";
import { minify } from "terser";

/**
 * The scripts every page loads, minified once more with terser after esbuild (ADR 38): the browser's
 * entry and the route modules, and what they import statically. Terser takes about 4 % off their
 * gzip size (some 6 KB of the first load) where esbuild has stopped; the chunks loaded lazily (the
 * call and Markdown code, the MLS library, dialogs) stay with esbuild alone, which keeps the build
 * quick: terser over all of them would take about four times as long as the whole build.
 */
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
      const queue = [...chunks.values()].filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName);
      const eager = new Set(queue);
      for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
        for (const imported of chunks.get(name)?.imports ?? []) {
          if (!eager.has(imported) && chunks.has(imported)) {
            eager.add(imported);
            queue.push(imported);
          }
        }
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
