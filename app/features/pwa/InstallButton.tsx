import { useInstallOffer } from "~/features/pwa/install.client";

/** "Install app", shown only while the browser offers to install ChatCrypt (not when it is installed). */
export function InstallButton() {
  const { offered, install } = useInstallOffer();
  if (!offered) return null;
  return (
    <button type="button" className="btn btn-small install-button" onClick={() => void install()}>
      Install app
    </button>
  );
}
