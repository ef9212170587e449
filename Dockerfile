# ChatCrypt's web app: the Remix production build served by server.mjs (Express).
#
#   docker build -t chatcrypt-web .

# --- build: all packages (the build tools are dev dependencies), the build, then only what runs ---
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# `npm install` rather than `npm ci`, as scripts/ensure-deps.sh explains: the lockfile pins every
# version, and lists only one platform's optional packages (rollup, esbuild).
RUN npm install --no-audit --no-fund
COPY tsconfig.json remix.config.js vite.config.ts ./
COPY app ./app
COPY public ./public
COPY scripts/build-sw.mjs scripts/minify-first-load.ts ./scripts/
# npm run build's two steps: Remix's build, then the service worker.
RUN npx remix vite:build \
 && node scripts/build-sw.mjs \
 && npm prune --omit=dev --no-audit --no-fund

# --- runtime ---
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY server.mjs ./server.mjs
COPY server ./server
USER node
EXPOSE 3000
CMD ["node", "server.mjs"]
