import { useState, type FormEvent } from "react";
import { Field, FormActions, FormError } from "~/ui/Form";
import { Modal } from "~/ui/Modal";
import { MAX_NAME_CHARS } from "~/features/direct/names";

/**
 * "Rename conversation" (a group of three or more): the new name is sealed inside the group's MLS
 * group (names.ts); the server keeps only the ciphertext.
 */
export function RenameModal(props: {
  current: string;
  busy: boolean;
  error: string | null;
  onSubmit: (name: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(props.current);
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const wanted = name.trim();
    if (!wanted) return setProblem("Enter a name.");
    if ([...wanted].length > MAX_NAME_CHARS) return setProblem(`A name has at most ${MAX_NAME_CHARS} characters.`);
    setProblem(null);
    props.onSubmit(wanted);
  }

  return (
    <Modal title="Rename conversation" onClose={props.onClose}>
      <form onSubmit={submit} noValidate>
        <Field label="Name" maxLength={MAX_NAME_CHARS} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        <FormError message={problem ?? props.error} />
        <FormActions busy={props.busy} submitLabel="Save" onCancel={props.onClose} />
      </form>
    </Modal>
  );
}
