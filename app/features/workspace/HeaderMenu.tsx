import { MenuButton } from "~/ui/MenuButton";

/** The header menu: 'Set World Clock' and the WhatsApp contact book. */
export function HeaderMenu({ onSetWorldClock, onContacts }: { onSetWorldClock: () => void; onContacts: () => void }) {
  return (
    <MenuButton
      label="Menu"
      menuLabel="Menu"
      items={[
        { label: "Set World Clock", onSelect: onSetWorldClock },
        { label: "WhatsApp Contacts", onSelect: onContacts },
      ]}
    />
  );
}
