import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "vite";

const FILES = ["en/data.json", "en/messages.json"];
const base = dirname(createRequire(import.meta.url).resolve("emojibase-data/package.json"));
const read = (file: string) => readFileSync(join(base, file));

/**
 * The Emojibase data the reaction picker reads (frimousse, `emojibaseUrl="/emoji"`), served by this
 * app from the emojibase-data package: written to build/client/emoji/ by the client build, and served
 * from the package by the dev server. The page fetches it only when the picker first opens.
 */
export function emojiData(): Plugin {
  let client = false;
  return {
    name: "chatcrypt:emoji-data",
    configResolved(config) {
      client = !config.build.ssr;
    },
    configureServer(server) {
      server.middlewares.use("/emoji", (req, res, next) => {
        const file = (req.url ?? "").split("?")[0].slice(1);
        if (!FILES.includes(file)) return next();
        res.setHeader("Content-Type", "application/json");
        res.end(read(file));
      });
    },
    generateBundle() {
      if (!client) return;
      for (const file of FILES) this.emitFile({ type: "asset", fileName: `emoji/${file}`, source: read(file) });
    },
  };
}
