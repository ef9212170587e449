import { useState, type FormEvent } from "react";
import { api } from "~/lib/api.client";
import { messageOf } from "~/lib/errors";
import { Field, FormError } from "~/ui/Form";
import { LoadFailed, useLoad } from "~/ui/useLoad";
import { useSaving } from "~/ui/useSaving";
import type { AdminSectionProps } from "~/features/admin/types";
import type { SsoSettings } from "~/features/sso/types";

type Draft = Omit<SsoSettings, "client_secret_set" | "enabled"> & { client_secret: string };

const draftOf = (s: SsoSettings): Draft => ({
  issuer: s.issuer,
  client_id: s.client_id,
  client_secret: "",
  name: s.name,
  username_claim: s.username_claim,
  allowed_domains: s.allowed_domains,
  required: s.required,
});

/** Admin console > Single sign-on: the provider (the secret is never shown back) and the owner's "Require single sign-on". */
export function SsoSection({ viewer }: AdminSectionProps) {
  const [saved, setSaved] = useState<SsoSettings | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const { busy, error, saved: status, run } = useSaving("The settings could not be saved.");
  const { error: loadError, retry } = useLoad(async () => {
    const s = await api<SsoSettings>("/api/admin/sso").catch((e: unknown) => {
      throw new Error(messageOf(e, "The settings could not be loaded."));
    });
    setSaved(s);
    setDraft(draftOf(s));
  });

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!draft || busy) return;
    await run(async () => {
      const next = await api<SsoSettings>("/api/admin/sso", viewer.role === "owner" ? draft : { ...draft, required: undefined });
      setSaved(next);
      setDraft(draftOf(next));
      return "Single sign-on settings saved.";
    });
  }

  if (!draft || !saved)
    return loadError ? <LoadFailed message={loadError} onRetry={retry} /> : <p className="hint">Loading single sign-on settings...</p>;
  const set = (key: keyof Draft) => (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value });
  return (
    <form onSubmit={save} noValidate>
      <p>{saved.enabled ? "People can sign in with your identity provider." : "Single sign-on is off: set an issuer and a client id."}</p>
      <Field label="Issuer URL" name="sso-issuer" type="url" value={draft.issuer} onChange={set("issuer")} disabled={busy} />
      <Field label="Client ID" name="sso-client-id" value={draft.client_id} onChange={set("client_id")} disabled={busy} />
      <Field
        label="Client secret"
        name="sso-client-secret"
        type="password"
        autoComplete="off"
        hint={saved.client_secret_set ? "A secret is set. Leave this empty to keep it." : "No secret is set."}
        value={draft.client_secret}
        onChange={set("client_secret")}
        disabled={busy}
      />
      <Field
        label="Provider name"
        name="sso-name"
        maxLength={60}
        hint='Shown as "Sign in with <name>".'
        value={draft.name}
        onChange={set("name")}
        disabled={busy}
      />
      <Field
        label="Username claim"
        name="sso-username-claim"
        value={draft.username_claim}
        onChange={set("username_claim")}
        disabled={busy}
      />
      <Field
        label="Allowed email domains"
        name="sso-allowed-domains"
        hint="Comma-separated; empty allows any."
        value={draft.allowed_domains}
        onChange={set("allowed_domains")}
        disabled={busy}
      />
      <div className="field">
        <label>
          <input
            type="checkbox"
            checked={draft.required}
            onChange={(e) => setDraft({ ...draft, required: e.target.checked })}
            disabled={busy || viewer.role !== "owner"}
          />{" "}
          Require single sign-on
        </label>
        <p className="field-hint">
          Password sign-in is refused for everyone except the owner.{viewer.role !== "owner" && " Only the owner can change this."}
        </p>
      </div>
      <FormError message={error} />
      <p className="admin-status" role="status">
        {status}
      </p>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? "Saving..." : "Save single sign-on"}
      </button>
    </form>
  );
}
