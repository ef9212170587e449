import { useState, type FormEvent } from "react";
import { Field, FormActions, FormError } from "~/ui/Form";
import { Modal } from "~/ui/Modal";
import { PHONE_EXAMPLE, validateContact } from "~/features/contacts/whatsapp";
import type { Contact } from "~/features/contacts/contacts.client";

interface Props {
  mode: "manage" | "select";
  contacts: Contact[] | null;
  selectedId: string | null;
  error: string | null;
  busy: boolean;
  onSave: (contact: { id?: string; name: string; phone: string }) => Promise<boolean>;
  onDelete: (contact: Contact) => Promise<boolean>;
  onSelect: (contact: Contact) => void;
  onClose: () => void;
}

/** The WhatsApp contact book: manage mode (add, edit, delete) and select mode (choose who to send to). */
export function ContactsModal({ mode, contacts, selectedId, error, busy, onSave, onDelete, onSelect, onClose }: Props) {
  const [editing, setEditing] = useState<{ id?: string; name: string; phone: string } | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Contact | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!editing || busy) return;
    const checked = validateContact({ name: editing.name, phone: editing.phone });
    if (!checked.ok) return setFormError(checked.error);
    setFormError(null);
    if (await onSave({ id: editing.id, name: checked.name, phone: checked.phone })) setEditing(null);
  }

  return (
    <Modal title={mode === "select" ? "Choose a WhatsApp contact" : "WhatsApp Contacts"} onClose={onClose}>
      {contacts === null ? (
        <p className="hint">Loading contacts...</p>
      ) : contacts.length === 0 ? (
        <p className="hint">No contacts yet. Names and numbers are encrypted on this device before they are saved.</p>
      ) : (
        <ul className="contact-list" aria-label="Contacts">
          {contacts.map((c) => (
            <li key={c.id} className={`contact${c.id === selectedId ? " selected" : ""}`}>
              <span className="contact-text">
                <strong>{c.name}</strong>
                <span className="contact-phone">{c.phone}</span>
              </span>
              {mode === "select" && (
                <button type="button" className="btn btn-small btn-primary" onClick={() => onSelect(c)} aria-label={`Select ${c.name}`}>
                  Select
                </button>
              )}
              <button
                type="button"
                className="btn btn-small"
                onClick={() => setEditing({ id: c.id, name: c.name, phone: c.phone })}
                aria-label={`Edit ${c.name}`}
              >
                Edit
              </button>
              <button type="button" className="btn btn-small" onClick={() => setConfirming(c)} aria-label={`Delete ${c.name}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      {confirming && (
        <div className="confirm-box" role="alertdialog" aria-label="Delete contact">
          <p>Are you sure you want to delete this contact?</p>
          <div className="modal-actions">
            <button type="button" className="btn btn-small" onClick={() => setConfirming(null)} disabled={busy}>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn-small btn-danger"
              disabled={busy}
              onClick={async () => {
                if (await onDelete(confirming)) setConfirming(null);
              }}
            >
              Delete contact
            </button>
          </div>
        </div>
      )}
      {editing ? (
        <form onSubmit={submit} noValidate className="contact-form">
          <Field
            label="Name"
            required
            maxLength={100}
            value={editing.name}
            onChange={(e) => setEditing({ ...editing, name: e.target.value })}
          />
          <Field
            label="Phone number"
            required
            type="tel"
            placeholder={PHONE_EXAMPLE}
            value={editing.phone}
            onChange={(e) => setEditing({ ...editing, phone: e.target.value })}
          />
          <p className="hint">Include the country code, for example {PHONE_EXAMPLE}.</p>
          <FormError message={formError} />
          <FormActions busy={busy} submitLabel="Save contact" onCancel={() => setEditing(null)} />
        </form>
      ) : (
        <button type="button" className="btn btn-small" onClick={() => setEditing({ name: "", phone: "" })}>
          Add contact
        </button>
      )}
      <FormError message={error} />
      {/* While a contact is edited or a deletion confirmed, that has its own Cancel; Close comes back after. */}
      {!editing && !confirming && (
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
        </div>
      )}
    </Modal>
  );
}
