import { ToolButton } from "~/ui/ToolButton";
import { sendViaWhatsapp, type useContacts } from "~/features/contacts/useContacts.client";
import { PhoneIcon, UserIcon, WaveIcon } from "~/ui/icons";

/** The composer's mode buttons: dictation, WhatsApp mode and, in WhatsApp mode, the recipient. */
export function ComposerModes(props: {
  dictation: { listening: boolean; toggle: () => void };
  whatsapp: boolean;
  recipient: string | null;
  onToggleWhatsapp: () => void;
  onChooseContact: () => void;
}) {
  return (
    <>
      <ToolButton
        icon={<WaveIcon />}
        label={props.dictation.listening ? "Stop dictation" : "Dictation"}
        pressed={props.dictation.listening}
        onClick={props.dictation.toggle}
      />
      <ToolButton icon={<PhoneIcon />} label="WhatsApp mode" pressed={props.whatsapp} onClick={props.onToggleWhatsapp} />
      {props.whatsapp && (
        <ToolButton
          icon={<UserIcon />}
          label={props.recipient ? `To: ${props.recipient} (change)` : "Choose contact"}
          onClick={props.onChooseContact}
        />
      )}
    </>
  );
}

/** WhatsApp mode's two actions: turning it on or off, and handing a text to WhatsApp (asking for a recipient first). */
export function whatsappMode(contacts: ReturnType<typeof useContacts>, openContacts: (mode: "select") => void) {
  return {
    toggle() {
      if (contacts.mode) return contacts.setMode(false);
      contacts.setMode(true);
      if (!contacts.recipient) openContacts("select");
    },
    async send(text: string): Promise<boolean> {
      if (!text.trim()) return false;
      if (!contacts.recipient) {
        openContacts("select");
        return false;
      }
      // (the text stays in the composer if the hand-off's code could not load)
      return sendViaWhatsapp(contacts.recipient, text.trim()).then(
        () => true,
        () => false,
      );
    },
  };
}
