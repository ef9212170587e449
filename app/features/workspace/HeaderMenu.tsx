import { lazy, Suspense, useState } from "react";
import type { SessionUser } from "~/lib/session-user";
import { InstallButton } from "~/features/pwa/InstallButton";
import { MenuButton } from "~/ui/MenuButton";
import { isAdminRole } from "~/features/roles/roles";

const AccountDialog = lazy(() => import("~/features/account/AccountDialog"));

/** The header menu: 'Set World Clock', the WhatsApp contact book, Account and, for administrators, the admin console; beside it "Install app" when the browser offers it. */
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
          ...(isAdminRole(user.role) ? [{ label: "Admin console", onSelect: () => window.location.assign("/admin") }] : []),
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
