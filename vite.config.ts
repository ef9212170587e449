import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import remixConfig from "./remix.config.js";
import { emojiData } from "./scripts/emoji-data";
import { minifyFirstLoad } from "./scripts/minify-first-load";

export default defineConfig({
  plugins: [remix(remixConfig), minifyFirstLoad(), emojiData()],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  server: { host: "127.0.0.1", port: 3000 },
  build: { target: "es2022" },
});
