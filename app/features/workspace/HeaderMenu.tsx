import { useState } from "react";
import { lazyPart } from "~/ui/lazyPart";
import type { SessionUser } from "~/lib/session-user";
import { InstallButton } from "~/features/pwa/InstallButton";
import { MenuButton } from "~/ui/MenuButton";
import { isAdminRole } from "~/features/roles/roles";
import { useStanding } from "~/features/roles/standing.client";

const AccountDialog = lazyPart(() => import("~/features/account/AccountDialog").then((m) => m.default), { whenFailed: "toast" });

/** The header menu: the account's Notification settings, 'Set World Clock', the WhatsApp contact book, Account and, for administrators, the admin console; beside it "Install app" when the browser offers it. */
export function HeaderMenu({
  user,
  onDialog,
  onContacts,
}: {
  user: SessionUser;
  /** Opens the World Clock or the account-wide Notification Settings (each conversation's own choice is the bell in its header). */
  onDialog: (kind: "worldClock" | "notifications") => void;
  onContacts: () => void;
}) {
  const [account, setAccount] = useState(false);
  const { role } = useStanding(user);
  return (
    <>
      <InstallButton />
      <MenuButton
        label="Menu"
        menuLabel="Menu"
        items={[
          { label: "Notification settings", onSelect: () => onDialog("notifications") },
          { label: "Set World Clock", onSelect: () => onDialog("worldClock") },
          { label: "WhatsApp Contacts", onSelect: onContacts },
          { label: "Account", onSelect: () => setAccount(true) },
          ...(isAdminRole(role) ? [{ label: "Admin console", onSelect: () => window.location.assign("/admin") }] : []),
        ]}
      />
      {account && <AccountDialog user={user} onClose={() => setAccount(false)} />}
    </>
  );
}
