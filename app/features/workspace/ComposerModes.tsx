import { ToolButton } from "~/ui/ToolButton";
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
