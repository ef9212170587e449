import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { listenForInstallOffer } from "~/features/pwa/install.client";
import { registerServiceWorker } from "~/features/pwa/register.client";

listenForInstallOffer();
registerServiceWorker();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
