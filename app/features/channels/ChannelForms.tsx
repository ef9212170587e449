import { useState, type FormEvent } from "react";
import { Field, FormActions, FormError } from "~/ui/Form";
import { Modal } from "~/ui/Modal";
import { createChannelFormSchema, joinChannelFormSchema } from "~/features/channels/validation";

interface FormProps<T> {
  busy: boolean;
  error: string | null;
  onSubmit: (values: T) => void;
  onClose: () => void;
}

/** Validates with the form's schema, then submits; a problem shows as the form's error. */
function useValidatedSubmit<T>(
  schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } },
  props: FormProps<T>,
) {
  const [formError, setFormError] = useState<string | null>(null);
  const submit = (values: unknown) => (event: FormEvent) => {
    event.preventDefault();
    if (props.busy) return;
    const parsed = schema.safeParse(values);
    if (!parsed.success) return setFormError(parsed.error.issues[0]?.message ?? "Please check the form.");
    setFormError(null);
    props.onSubmit(parsed.data);
  };
  return { submit, shown: formError ?? props.error };
}

/** Create Channel (spec §2.5): Channel Name, Password, and the reminder to share the password. */
export function CreateChannelModal(props: FormProps<{ name: string; password: string; sealed: boolean }>) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [sealed, setSealed] = useState(false);
  const { submit, shown } = useValidatedSubmit(createChannelFormSchema, props);
  return (
    <Modal title="Create Channel" onClose={props.onClose}>
      <form onSubmit={submit({ name, password, sealed })} noValidate>
        <Field label="Channel Name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} disabled={props.busy} />
        <Field
          label="Password"
          type="password"
          required
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          disabled={props.busy}
        />
        <p className="hint">Share this password with the people you invite: they need it to join and read the channel.</p>
        <ChannelKind sealed={sealed} onChange={setSealed} disabled={props.busy} />
        <FormError message={shown} />
        <FormActions busy={props.busy} submitLabel="Create" onCancel={props.onClose} />
      </form>
    </Modal>
  );
}

/** Join Channel (spec §2.5): Channel ID in UUID format, Password. */
export function JoinChannelModal(props: FormProps<{ channelId: string; password: string }>) {
  const [channelId, setChannelId] = useState("");
  const [password, setPassword] = useState("");
  const { submit, shown } = useValidatedSubmit(joinChannelFormSchema, props);
  return (
    <Modal title="Join Channel" onClose={props.onClose}>
      <form onSubmit={submit({ channelId, password })} noValidate>
        <Field
          label="Channel ID"
          required
          placeholder="xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
          autoComplete="off"
          spellCheck={false}
          value={channelId}
          onChange={(e) => setChannelId(e.target.value)}
          disabled={props.busy}
        />
        <Field
          label="Password"
          type="password"
          required
          autoComplete="off"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          disabled={props.busy}
        />
        <FormError message={shown} />
        <FormActions busy={props.busy} submitLabel="Join" onCancel={props.onClose} />
      </form>
    </Modal>
  );
}

/**
 * Classic or sealed (ADR 0015): chosen once, when the channel is created. The classic option's full
 * text is its description, not its label: a label mentioning "password" would also answer for the
 * Password field.
 */
function ChannelKind({ sealed, onChange, disabled }: { sealed: boolean; onChange: (sealed: boolean) => void; disabled: boolean }) {
  return (
    <fieldset className="channel-kind">
      <legend>Channel type</legend>
      <div className="radio-option">
        <input
          type="radio"
          name="channel-kind"
          id="channel-kind-classic"
          aria-label="Classic"
          aria-describedby="channel-kind-classic-text"
          checked={!sealed}
          onChange={() => onChange(false)}
          disabled={disabled}
        />
        <span id="channel-kind-classic-text" onClick={() => !disabled && onChange(false)} aria-hidden="true">
          Classic (anyone with the password reads the whole history)
        </span>
      </div>
      <label className="radio-option">
        <input type="radio" name="channel-kind" checked={sealed} onChange={() => onChange(true)} disabled={disabled} />
        Sealed (forward secrecy; members read from the moment they join)
      </label>
    </fieldset>
  );
}
