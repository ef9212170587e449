import { lazy, Suspense, useState } from "react";
import type { SessionUser } from "~/lib/session-user";
import { InstallButton } from "~/features/pwa/InstallButton";
import { MenuButton } from "~/ui/MenuButton";

const AccountDialog = lazy(() => import("~/features/account/AccountDialog"));

/** The header menu: 'Set World Clock', the WhatsApp contact book and Account; beside it "Install app" when the browser offers it. */
export function HeaderMenu({
  user,
  onSetWorldClock,
  onContacts,
}: {
  user: SessionUser;
  onSetWorldClock: () => void;
  onContacts: () => void;
}) {
  const [account, setAccount] = useState(false);
  return (
    <>
      <InstallButton />
      <MenuButton
        label="Menu"
        menuLabel="Menu"
        items={[
          { label: "Set World Clock", onSelect: onSetWorldClock },
          { label: "WhatsApp Contacts", onSelect: onContacts },
          { label: "Account", onSelect: () => setAccount(true) },
        ]}
      />
      {account && (
        <Suspense fallback={null}>
          <AccountDialog user={user} onClose={() => setAccount(false)} />
        </Suspense>
      )}
    </>
  );
}
