import { RoleTags } from "~/features/roles/RoleTags";
import { useEffect, useState, type FormEvent } from "react";
import { refusalOf } from "~/lib/api.client";
import { Check, Field, FormActions, FormError } from "~/ui/Form";
import { Modal } from "~/ui/Modal";
import { lookupPerson, sharedPeople } from "~/features/direct/direct.client";
import { MAX_PARTICIPANTS, type Person } from "~/features/direct/types";
import type { useDirect } from "~/features/direct/useDirect.client";
import { WaitingForDevices } from "~/features/direct/WaitingForDevices";
import { RenameModal } from "~/features/direct/RenameModal";

interface Props {
  title: string;
  submitLabel: string;
  /** People who are in the conversation already (when adding people): not offered. */
  exclude?: readonly string[];
  /** Offer a name for a group (a new conversation of three or more). */
  naming: boolean;
  busy: boolean;
  error: string | null;
  onSubmit: (people: Person[], name: string) => void;
  onClose: () => void;
}

/**
 * The people picker of "New message" and "Add people": the people the user shares a channel with, and
 * an exact-username look-up for anyone else (the server never lists all users).
 */
export function PeoplePicker(props: Props) {
  const [people, setPeople] = useState<Person[] | null>(null);
  const [chosen, setChosen] = useState<Person[]>([]);
  const [username, setUsername] = useState("");
  const [name, setName] = useState("");
  const [note, setNote] = useState<string | null>(null);
  const [looking, setLooking] = useState(false);
  const room = MAX_PARTICIPANTS - 1 - (props.exclude?.length ? props.exclude.length - 1 : 0);

  useEffect(() => {
    sharedPeople().then(setPeople, () => {
      setPeople([]);
      setNote("Your contacts could not be loaded. You can still look someone up by username.");
    });
  }, []);

  const offered = [...(people ?? []), ...chosen.filter((c) => !people?.some((p) => p.id === c.id))].filter(
    (p) => !props.exclude?.includes(p.id),
  );
  const toggle = (person: Person, on: boolean) =>
    setChosen((current) => (on ? [...current.filter((c) => c.id !== person.id), person] : current.filter((c) => c.id !== person.id)));

  async function lookUp() {
    const wanted = username.trim();
    if (!wanted) return setNote("Type a username to look up.");
    setLooking(true);
    setNote(null);
    try {
      const found = await lookupPerson(wanted);
      if (!found) setNote(`Nobody is called ${wanted}.`);
      else if (props.exclude?.includes(found.id)) setNote(`${found.username} is already in this conversation.`);
      else {
        toggle(found, true);
        setUsername("");
        setNote(`${found.username} added.`);
      }
    } catch (error) {
      setNote(refusalOf(error, "The look-up failed. Please try again."));
    } finally {
      setLooking(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (props.busy) return;
    if (chosen.length === 0) return setNote("Choose at least one person.");
    if (chosen.length > room) return setNote(`A conversation has at most ${MAX_PARTICIPANTS} people.`);
    props.onSubmit(chosen, name.trim());
  }

  return (
    <Modal title={props.title} onClose={props.onClose}>
      <form onSubmit={submit} noValidate>
        <fieldset className="people-picker" disabled={props.busy}>
          <legend>People</legend>
          {/* (someone looked up while the list loads is offered at once) */}
          {people === null && offered.length === 0 ? (
            <p className="hint">Loading people...</p>
          ) : offered.length === 0 && people?.some((p) => props.exclude?.includes(p.id)) ? (
            <p className="hint">Everyone who shares a channel with you is already here. Look someone else up by their exact username.</p>
          ) : offered.length === 0 ? (
            <p className="hint">Nobody shares a channel with you yet. Look someone up by their exact username.</p>
          ) : (
            <ul className="people-list">
              {offered.map((person) => (
                <li key={person.id}>
                  <Check
                    label={person.username}
                    checked={chosen.some((c) => c.id === person.id)}
                    onChange={(e) => toggle(person, e.target.checked)}
                  />
                  <RoleTags person={person} />
                </li>
              ))}
            </ul>
          )}
        </fieldset>
        <div className="people-lookup">
          <Field
            label="Find by username"
            value={username}
            autoComplete="off"
            maxLength={32}
            onChange={(e) => setUsername(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== "Enter") return;
              e.preventDefault();
              void lookUp();
            }}
            disabled={props.busy || looking}
          />
          <button type="button" className="btn" onClick={() => void lookUp()} disabled={props.busy || looking}>
            {looking ? "Looking up..." : "Look up"}
          </button>
        </div>
        {note && (
          <p className="hint" role="status">
            {note}
          </p>
        )}
        {props.naming && chosen.length > 1 && (
          <Field label="Conversation name (optional)" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        )}
        <WaitingForDevices people={chosen} />
        <FormError message={props.error} />
        <FormActions busy={props.busy} submitLabel={props.submitLabel} onCancel={props.onClose} />
      </form>
    </Modal>
  );
}

/** The open dialog of the workspace's direct messages: "New message", "Add people" or "Rename conversation". */
export function DirectPicker({ direct }: { direct: ReturnType<typeof useDirect> }) {
  const picker = direct.picker;
  if (!picker) return null;
  if (picker.kind === "rename")
    return (
      <RenameModal
        current={picker.channel.name}
        busy={direct.busy}
        error={direct.error}
        onSubmit={(name) => void direct.rename(name)}
        onClose={direct.close}
      />
    );
  return (
    <PeoplePicker
      title={picker.kind === "new" ? "New message" : "Add people"}
      submitLabel={picker.kind === "new" ? "Start conversation" : "Add"}
      exclude={picker.kind === "add" ? picker.channel.participants?.map((p) => p.id) : undefined}
      naming={picker.kind === "new"}
      busy={direct.busy}
      error={direct.error}
      onSubmit={(people, name) => void direct.choose(people, name)}
      onClose={direct.close}
    />
  );
}
