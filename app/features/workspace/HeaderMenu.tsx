import { InstallButton } from "~/features/pwa/InstallButton";
import { MenuButton } from "~/ui/MenuButton";

/** The header menu: 'Set World Clock' and the WhatsApp contact book; beside it "Install app" when the browser offers it. */
export function HeaderMenu({ onSetWorldClock, onContacts }: { onSetWorldClock: () => void; onContacts: () => void }) {
  return (
    <>
      <InstallButton />
      <MenuButton
        label="Menu"
        menuLabel="Menu"
        items={[
          { label: "Set World Clock", onSelect: onSetWorldClock },
          { label: "WhatsApp Contacts", onSelect: onContacts },
        ]}
      />
    </>
  );
}
