import type { RouteConfig } from "@remix-run/route-config";
import { route } from "@remix-run/route-config";
import { flatRoutes } from "@remix-run/fs-routes";

export default [
  ...(await flatRoutes()),
  // A conversation's address (`/c/<id>`, with `/t/<thread>` or `/m/<message>`; ADR 61) is the same page
  // as `/`, the same module, for every address under /c/: one that names nothing is the page's to say
  // so, not a 404.
  route("c/*", "routes/_index.tsx", { id: "conversation" }),
] satisfies RouteConfig;
