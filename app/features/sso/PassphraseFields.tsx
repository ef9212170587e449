import { Field } from "~/ui/Form";
import { MIN_PASSPHRASE_LENGTH, passphraseStrength } from "~/features/sso/strength";

/** A new encryption passphrase, its confirmation and its strength (judged here: it is never sent). */
export function PassphraseFields(props: {
  passphrase: string;
  confirmation: string;
  onPassphrase: (value: string) => void;
  onConfirmation: (value: string) => void;
  disabled: boolean;
}) {
  const strength = passphraseStrength(props.passphrase);
  return (
    <>
      <Field
        label="Encryption passphrase"
        name="passphrase"
        type="password"
        autoComplete="new-password"
        hint={`At least ${MIN_PASSPHRASE_LENGTH} characters; a few unrelated words work well. It never leaves this device: neither we nor your identity provider can recover it.`}
        required
        value={props.passphrase}
        onChange={(e) => props.onPassphrase(e.target.value)}
        disabled={props.disabled}
      />
      <div className="field passphrase-strength">
        <label htmlFor="passphrase-strength">Passphrase strength</label>
        <meter
          id="passphrase-strength"
          min={0}
          max={3}
          low={1}
          high={2}
          optimum={3}
          value={props.passphrase ? strength.score : 0}
          aria-valuetext={strength.label}
        />
        <span aria-live="polite">{props.passphrase ? strength.label : ""}</span>
      </div>
      <Field
        label="Confirm encryption passphrase"
        name="passphrase-confirmation"
        type="password"
        autoComplete="new-password"
        required
        value={props.confirmation}
        onChange={(e) => props.onConfirmation(e.target.value)}
        disabled={props.disabled}
      />
    </>
  );
}
