import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { ApiError } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import { Field, FormError } from "~/ui/Form";
import { checkDisplayName } from "~/features/profile-cards/card";
import { loadOwnCard, saveOwnCard } from "~/features/profile-cards/own.client";
import { NOT_AN_IMAGE, shrinkPhoto } from "~/features/profile-cards/photo.client";
import { Avatar } from "~/features/profile-cards/PersonName";
import { MAX_DISPLAY_NAME } from "~/features/profile-cards/types";

type Status = { kind: "loading" | "saving" | "saved" | "idle" };

/** Menu > Account > Profile: the display name and photo, encrypted in this browser (ADR 0075). */
export function ProfileSection({ user }: { user: SessionUser }) {
  const headingId = useId();
  const photoId = useId();
  const [name, setName] = useState("");
  const [photo, setPhoto] = useState<string | undefined>(undefined);
  const [status, setStatus] = useState<Status>({ kind: "loading" });
  const [error, setError] = useState<string | null>(null);
  // what the person changed before their saved card arrived is theirs: the loaded card never overwrites it
  const touched = useRef({ name: false, photo: false });

  useEffect(() => {
    let current = true;
    loadOwnCard(user.id)
      .then((card) => {
        if (!current) return;
        if (!touched.current.name) setName(card?.name ?? "");
        if (!touched.current.photo) setPhoto(card?.photo);
        setStatus({ kind: "idle" });
      })
      .catch((err) => {
        if (!current) return;
        console.warn("Your profile could not be loaded", err);
        setError(err instanceof ApiError ? err.message : "Your profile could not be loaded. Please try again.");
        setStatus({ kind: "idle" });
      });
    return () => void (current = false);
  }, [user.id]);

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setError(null);
    try {
      const shrunk = await shrinkPhoto(file);
      touched.current.photo = true;
      setPhoto(shrunk);
      setStatus({ kind: "idle" });
    } catch (err) {
      setError(
        err instanceof Error && err.message === NOT_AN_IMAGE ? NOT_AN_IMAGE : "This photo could not be read. Please choose another.",
      );
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const checked = checkDisplayName(name);
    if ("error" in checked) return setError(checked.error);
    setStatus({ kind: "saving" });
    try {
      await saveOwnCard(user.id, { ...(checked.name ? { name: checked.name } : {}), ...(photo ? { photo } : {}) });
      setName(checked.name);
      setStatus({ kind: "saved" });
    } catch (err) {
      if (!(err instanceof ApiError)) console.warn("Saving the profile failed", err);
      setError(err instanceof Error && err.message ? err.message : "Your profile could not be saved. Please try again.");
      setStatus({ kind: "idle" });
    }
  }

  const busy = status.kind === "loading" || status.kind === "saving";
  return (
    <section className="account-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Profile</h3>
      <p className="hint">
        Your display name and photo are encrypted in this browser: only people you share a conversation with can see them, never the server.
      </p>
      <form onSubmit={submit}>
        <Field
          label="Display name"
          hint={`Optional, up to ${MAX_DISPLAY_NAME} characters. People still find you by @${user.username}.`}
          value={name}
          maxLength={MAX_DISPLAY_NAME}
          autoComplete="name"
          disabled={status.kind === "loading"}
          onChange={(e) => {
            touched.current.name = true;
            setName(e.target.value);
            if (status.kind === "saved") setStatus({ kind: "idle" });
          }}
        />
        <div className="field">
          <label htmlFor={photoId}>Photo</label>
          <div className="profile-photo-row">
            <Avatar card={photo ? { name: name.trim() || undefined, photo } : null} username={user.username} />
            <input id={photoId} type="file" accept="image/*" disabled={busy} onChange={(e) => void pick(e)} />
            {photo && (
              <button
                type="button"
                className="btn btn-small"
                disabled={busy}
                onClick={() => {
                  touched.current.photo = true;
                  setPhoto(undefined);
                }}
              >
                Remove photo
              </button>
            )}
          </div>
          <p className="field-hint">
            Shrunk to {256}x{256} in this browser before it is encrypted.
          </p>
        </div>
        <FormError message={error} />
        <p role="status" className="hint">
          {status.kind === "loading"
            ? "Loading your profile..."
            : status.kind === "saving"
              ? "Saving your profile..."
              : status.kind === "saved"
                ? "Profile saved."
                : ""}
        </p>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Save profile
        </button>
      </form>
    </section>
  );
}
