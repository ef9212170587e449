import { useId, type InputHTMLAttributes, type MouseEvent } from "react";

/** A labelled input: the label names the input for assistive technology. */
export function Field({ label, hint, ...input }: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The account's current password, asked again before a change that needs it. */
export function PasswordField({
  value,
  onChange,
  label = "Password",
}: {
  value: string;
  onChange: (value: string) => void;
  label?: string;
}) {
  return (
    <Field
      label={label}
      type="password"
      autoComplete="current-password"
      required
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** The form's error, announced to assistive technology; nothing when there is none. */
export function FormError({ message, id }: { message: string | null | undefined; id?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="form-error" role="alert">
      {message}
    </p>
  );
}

/**
 * Cancel and the dialog's action, which reads 'Processing...' while busy. Without `onConfirm` the action
 * submits the form around it.
 */
export function FormActions(props: {
  busy: boolean;
  submitLabel: string;
  onCancel: () => void;
  onConfirm?: () => void;
  disabled?: boolean;
  danger?: boolean;
}) {
  const { busy, submitLabel, onCancel, onConfirm } = props;
  // (busy: aria-disabled, not disabled, which would drop the keyboard's focus out of the dialog, where a
  // refusal then finds it nowhere; a click, or Enter's submit, meanwhile does nothing)
  const held = (then?: () => void) => (event: MouseEvent<HTMLButtonElement>) => {
    if (busy) return event.preventDefault();
    then?.();
  };
  return (
    <div className="modal-actions">
      <button type="button" className="btn" onClick={held(onCancel)} aria-disabled={busy || undefined}>
        Cancel
      </button>
      <button
        type={onConfirm ? "button" : "submit"}
        className={`btn ${props.danger ? "btn-danger" : "btn-primary"}`}
        onClick={held(onConfirm)}
        disabled={!busy && props.disabled}
        aria-disabled={busy || undefined}
      >
        {busy ? "Processing..." : submitLabel}
      </button>
    </div>
  );
}

/** A labelled checkbox. */
export function Check({ label, ...input }: { label: string } & Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  return (
    <label className="check">
      <input type="checkbox" {...input} />
      {label}
    </label>
  );
}
