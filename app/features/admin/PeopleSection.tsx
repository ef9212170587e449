import { useCallback, useEffect, useRef, useState } from "react";
import { changeRole, deactivate, reactivate, searchPeople, signOutAll } from "~/features/admin/admin.client";
import { CreateChannelsSetting } from "~/features/admin/CreateChannelsSetting";
import { PersonCard, type PersonAction } from "~/features/admin/PersonCard";
import type { AdminPerson, AdminSectionProps } from "~/features/admin/types";
import { MAX_SEARCH } from "~/features/admin/validation";
import { isAdminRole, roleName } from "~/features/roles/roles";
import { standingChanged } from "~/features/roles/standing.client";
import { ConfirmDialog } from "~/ui/Modal";
import { issueResetCode } from "~/features/reset-codes/reset-codes.client";
import { FormError } from "~/ui/Form";
import { LoadFailed } from "~/ui/useLoad";

/** A change that waits for the administrator's yes. */
type Pending = { person: AdminPerson; title: string; message: string; confirmLabel: string; run: () => Promise<string> };

const nameOf = (p: AdminPerson) => p.username || p.email;
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** People: search as you type (username, email), each person's role, status and counts, and what an admin does to them. */
export function PeopleSection({ viewer, workspace }: AdminSectionProps) {
  const [query, setQuery] = useState("");
  const [people, setPeople] = useState<AdminPerson[] | null>(null);
  // (how many owners the workspace has: the last one's role cannot change)
  const [owners, setOwners] = useState(0);
  const [error, setError] = useState("");
  const [status, setStatus] = useState("");
  // (the server lists the first ones only: the console says so)
  const [more, setMore] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState("");
  const asked = useRef(0);

  const load = useCallback(async (wanted: string) => {
    const mine = ++asked.current;
    try {
      const answer = await searchPeople(wanted);
      if (mine !== asked.current) return;
      setPeople(answer.people);
      setMore(answer.more);
      setOwners(answer.owners);
      setError("");
    } catch (e) {
      if (mine === asked.current) setError(message(e));
    }
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => void load(query.trim()), 150);
    return () => clearTimeout(timer);
  }, [query, load]);

  async function run(job: () => Promise<string>) {
    setBusy(true);
    setStatus("");
    try {
      setStatus(await job());
      setPending(null);
    } catch (e) {
      if (pending) setDialogError(message(e));
      else setError(message(e));
    } finally {
      // (the refusal's dialog can be closed at once, while the cards are read again)
      setBusy(false);
    }
    // (done, or refused: another administrator may have changed the person meanwhile; the cards say how they stand)
    await load(query.trim());
  }

  /** What a role change means for the person, said in its confirmation. */
  function roleChange(name: string, from: string, to: string): string {
    if (isAdminRole(to)) return `${name} will manage people and invites, and open this console.`;
    if (isAdminRole(from)) return `${name} will no longer manage people or open this console.`;
    return to === "guest"
      ? `${name} will join channels only through an invite, and will not invite anyone or create channels. The channels they are in now stay theirs: remove them from one to take it away.`
      : `${name} will join channels with their ID and password and invite people, like any member.`;
  }

  function onRole(person: AdminPerson, role: string) {
    if (role === person.role) return;
    const job = async () => {
      await changeRole(person.id, role, person.role);
      // (their own role: the console reads it again, as it shows and allows by it)
      if (person.id === viewer.id) void standingChanged(viewer.id);
      return `${nameOf(person)} is now ${roleName(role)}.`;
    };
    // Every change is confirmed: a select changes with each arrow key, and a role changes what the person may do.
    setDialogError("");
    setPending({
      person,
      title: `Make ${nameOf(person)} ${roleName(role)}?`,
      message: roleChange(nameOf(person), person.role, role),
      confirmLabel: "Change role",
      run: job,
    });
  }

  function onAction(person: AdminPerson, action: PersonAction) {
    const name = nameOf(person);
    setDialogError("");
    if (action === "reactivate")
      return void run(async () => {
        const answer = await reactivate(person.id);
        return answer.already ? `${name} was already active: someone else reactivated them.` : `${name} was reactivated.`;
      });
    if (action === "deactivate")
      return setPending({
        person,
        title: `Deactivate ${name}?`,
        message: `${name} is signed out everywhere and removed from every channel and conversation. You can reactivate the account later.`,
        confirmLabel: "Deactivate",
        run: async () => {
          const answer = await deactivate(person.id);
          return answer.already ? `${name} was already deactivated: someone else did it.` : `${name} was deactivated.`;
        },
      });
    if (action === "reset-code")
      return setPending({
        person,
        title: `Issue a reset code for ${name}?`,
        message: person.sso
          ? `${name} signs in with single sign-on. With the code, they choose a password under "Forgot your password?" without email: it becomes their encryption passphrase, and it also signs them in without the identity provider unless the workspace requires single sign-on. Give it to them in person or by phone: it works once, within 24 hours. Their recovery key, or a passkey that unlocks their keys, keeps their messages readable; without either, they start again with new keys.`
          : `With the code, ${name} chooses a new password under "Forgot your password?" without email. Give it to them in person or by phone: it works once, within 24 hours. Their recovery key, or a passkey that unlocks their keys, keeps their messages readable.`,
        confirmLabel: "Issue a reset code",
        run: async () => {
          const { code } = await issueResetCode(person.id);
          return `Reset code for ${name}: ${code}. It works once, within 24 hours.`;
        },
      });
    setPending({
      person,
      title: `Sign ${name} out of all devices?`,
      message: `Every session of ${name} ends now, and their devices leave any call. They can sign in again.`,
      confirmLabel: "Sign out all devices",
      run: async () => {
        const { sessions } = await signOutAll(person.id);
        return `${name} was signed out of ${sessions} ${sessions === 1 ? "device" : "devices"}.`;
      },
    });
  }

  return (
    <>
      <CreateChannelsSetting initial={workspace.whoCanCreateChannels} />
      <div className="admin-search">
        <label htmlFor="admin-people-search">Search people</label>
        <input
          id="admin-people-search"
          type="search"
          value={query}
          maxLength={MAX_SEARCH}
          placeholder="Username or email"
          autoComplete="off"
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <p className="admin-status" role="status">
        {status}
      </p>
      {people === null && error ? <LoadFailed message={error} onRetry={() => void load(query.trim())} /> : <FormError message={error} />}
      {people === null ? (
        !error && <p className="hint">Loading people...</p>
      ) : people.length === 0 ? (
        <p className="hint">Nobody matches "{query.trim()}".</p>
      ) : (
        <>
          {more && <p className="hint">Showing the first {people.length} people by username. Search to find anyone else.</p>}
          <ul className="admin-people" aria-label="People">
            {people.map((p) => (
              <PersonCard
                key={p.id}
                person={p}
                viewer={viewer}
                lastOwner={p.role === "owner" && !p.deactivated && owners <= 1}
                busy={busy}
                onRole={onRole}
                onAction={onAction}
              />
            ))}
          </ul>
        </>
      )}
      {pending && (
        <ConfirmDialog
          title={pending.title}
          message={pending.message}
          confirmLabel={pending.confirmLabel}
          busy={busy}
          error={dialogError}
          onConfirm={() => void run(pending.run)}
          onClose={() => !busy && setPending(null)}
        />
      )}
    </>
  );
}
