import { useEffect, useState } from "react";
import { exportPublicKey, safetyNumber, type IdentityKeys } from "~/crypto";
import { deviceKeys } from "~/lib/device-keys.client";
import { KeysMissingError } from "~/lib/errors";
import { senderProfiles } from "~/conversation/senders/profiles.client";
import { checkKeys, markVerified } from "~/conversation/senders/pins.client";
import { usePins } from "~/features/key-pins/usePins.client";

async function ownIdentity(userId: string): Promise<IdentityKeys> {
  const keys = await deviceKeys(userId);
  if (!keys) throw new KeysMissingError();
  const [ecdhPublicKey, rsaPublicKey] = await Promise.all([exportPublicKey(keys.ecdhPublicKey), exportPublicKey(keys.rsaPublicKey)]);
  return { userId, ecdhPublicKey, rsaPublicKey };
}

interface Props {
  userId: string;
  memberId: string;
  username: string;
}

/** A member's safety number (from both users' pinned identity keys), with "Mark as verified". */
export function SafetyNumber({ userId, memberId, username }: Props) {
  const [open, setOpen] = useState(false);
  const [groups, setGroups] = useState<string[] | null>(null);
  const { pins, changed } = usePins();
  const pin = pins.get(memberId);
  const change = changed.get(memberId);
  const keysChanged = change !== undefined;

  useEffect(() => {
    // Opening pins the member's keys if this is the first time they are seen.
    if (open)
      senderProfiles([memberId])
        .then((found) => {
          const profile = found.get(memberId)?.profile;
          return profile && checkKeys(userId, [profile]);
        })
        .catch((error) => console.warn("Keys could not be checked", error));
  }, [open, memberId, userId]);

  useEffect(() => {
    let current = true;
    setGroups(null);
    // The user's own keys come from this device's key bundle, never from what the server says they are.
    if (open && pin)
      ownIdentity(userId)
        .then((own) => safetyNumber(own, { userId: memberId, ecdhPublicKey: pin.e, rsaPublicKey: pin.r }))
        .then(
          (found) => current && setGroups(found),
          (error) => console.warn("The safety number could not be computed", error),
        );
    return () => void (current = false);
  }, [open, pin, memberId, userId]);

  return (
    <div className="safety">
      <button
        type="button"
        className="btn btn-small"
        aria-expanded={open}
        aria-label={`Safety number with ${username}`}
        onClick={() => setOpen((o) => !o)}
      >
        Safety number
      </button>
      {pin?.v && !keysChanged && <span className="member-role safety-verified">verified</span>}
      {open && change && (
        <p className="safety-warning">
          {username}&apos;s security keys {change.reason === "changed" ? "changed" : "could not be checked"}.
        </p>
      )}
      {open && !keysChanged && groups && (
        <div className="safety-details">
          <p className="safety-number" aria-label={`Safety number with ${username}`} role="group">
            {groups.map((g, i) => (
              <span key={i}>{g}</span>
            ))}
          </p>
          {pin?.v ? (
            <p className="safety-status">Verified</p>
          ) : (
            <button
              type="button"
              className="btn btn-small"
              aria-label={`Mark ${username} as verified`}
              onClick={() => void markVerified(userId, memberId).catch((error) => console.warn("Could not mark as verified", error))}
            >
              Mark as verified
            </button>
          )}
        </div>
      )}
    </div>
  );
}
