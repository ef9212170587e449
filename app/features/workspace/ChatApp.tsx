import { useCallback, useEffect, useRef, useState } from "react";
import { lazyPart } from "~/ui/lazyPart";
import { onSessionChanged, onSessionEnded, setCsrfToken } from "~/lib/api.client";
import { sessionEndReason, SESSION_ENDED_MESSAGE } from "~/lib/errors";
import { AuthError, signIn, signOut } from "~/features/auth/auth.client";
import type { AuthMode, AuthValues } from "~/features/auth/AuthScreen";
import { InsecureContextScreen, LoadingScreen } from "~/features/workspace/LoadingScreen";
import { Workspace } from "~/features/workspace/Workspace";
import { parseInvite } from "~/features/channels/invite";
import type { SessionUser } from "~/lib/session-user";
import type { AppConfig } from "~/features/workspace/config";
import { takeMessageLinkFromAddress } from "~/features/message-links/useMessageLink.client";
import { goTo, keepPathOnly } from "~/features/address/address.client";
import { HOME } from "~/features/address/address";
import { FailedSignInsNotice } from "~/features/auth/FailedSignInsNotice";
import {
  clearPendingInvite,
  forgetSessionEnded,
  getPendingInvite,
  keepSessionEnded,
  sessionEndedKept,
  setPendingInvite,
} from "~/lib/storage.client";
import { previewInvite, refusalOf } from "~/features/invites/landing.client";
import { INVITE_USED_SIGNED_OUT } from "~/features/invites/types";
import { InviteDialogs } from "~/features/invites/InviteDialogs";
import { sayRefused } from "~/features/invites/ask.client";
import { invitedChannelName } from "~/features/channels/channels.client";
import { CallDock } from "~/features/calls/CallDock";
import { endCall } from "~/features/calls/store.client";
import { warmPins } from "~/conversation/senders/pins.client";
import { startProfileCards } from "~/features/profile-cards/start.client";
import { resumeArchive } from "~/conversation/archive/archive.client";
import { startDrafts } from "~/features/messages/drafts.client";
import { backToConsole } from "~/features/admin/return";
import { forgetRecoveryOffer, keepRecoveryOffer, recoveryOfferKept } from "~/features/recovery/offer-kept.client";

type Phase = "loading" | "insecure" | "ready";

// The sign-in screen (and its form checks) loads only for a page that is signed out.
const AuthScreen = lazyPart(() => import("~/features/auth/AuthScreen").then((m) => m.AuthScreen), { fallback: <LoadingScreen /> });
// Offered once, right after sign-up (the words library loads only then).
const RecoveryKeyDialog = lazyPart(() => import("~/features/recovery/RecoveryKeyDialog").then((m) => m.default), { whenFailed: "toast" });
// A new device of the account asking for approval (ADR 0059): its code loads right after sign-in.
// (it shows nothing until another device asks; not loaded, it waits for the network to come back)
const DeviceApproval = lazyPart(() => import("~/features/device-link/DeviceApproval").then((m) => m.default), { whenFailed: () => null });

/** Top-level state of the single page: loading, signed out (auth screen) or signed in (workspace). */
export function ChatApp({ csrfToken, initialUser, config }: { csrfToken: string; initialUser: SessionUser | null; config: AppConfig }) {
  const [phase, setPhase] = useState<Phase>("loading");
  const [user, setUser] = useState<SessionUser | null>(initialUser);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failedSignIns, setFailedSignIns] = useState(0);
  const [offerRecoveryKey, setOfferRecoveryKey] = useState(false);
  // Signed out with an invite: Sign Up first, saying where the link leads (undefined: no invite).
  const [invitedTo, setInvitedTo] = useState<string | null | undefined>(undefined);
  const [inviteRefused, setInviteRefused] = useState<string | null>(null);
  // what the check of a pending invite, made as the page opened, found: a used-up one is kept for whoever
  // used it and signs in; a new account cannot have used it (null: not answered yet)
  const inviteFound = useRef<string | null>(null);

  useEffect(() => {
    setCsrfToken(csrfToken);
  }, [csrfToken]);

  useEffect(() => {
    // An invite in the address becomes pending invite data, and the address is reset to the bare path.
    const invite = parseInvite(window.location.href);
    if (invite) {
      // someone already signed in is asked before anything is joined (features/invites)
      setPendingInvite(initialUser ? { ...invite, ask: true } : invite);
      keepPathOnly();
    }
    takeMessageLinkFromAddress();
    // (the session the server ended, before a reload: the sign-in screen still says why, until a sign-in)
    const ended = sessionEndedKept();
    if (initialUser) forgetSessionEnded();
    else if (ended && (sessionEndReason(ended) ?? SESSION_ENDED_MESSAGE) === ended) setError(ended);
    // (reloaded while the recovery key offered at sign-up was open: it is offered again)
    if (initialUser && recoveryOfferKept(initialUser.id)) setOfferRecoveryKey(true);
    const pending = getPendingInvite();
    if (pending) {
      setInvitedTo(null);
      void invitedChannelName(pending).then(setInvitedTo);
      // an invite that cannot be used says so on the sign-in screen, and is not used after it
      if (!initialUser)
        void previewInvite(pending.inviteId).then((preview) => {
          inviteFound.current = preview?.status ?? "unknown";
          const refused = refusalOf(preview);
          if (!refused) return;
          // (used up, perhaps by the one who opens it now on another device: kept until they sign in)
          if (preview?.status === "used") return setInviteRefused(INVITE_USED_SIGNED_OUT);
          clearPendingInvite();
          setInviteRefused(refused);
        });
    }
    setPhase(window.isSecureContext && globalThis.crypto?.subtle ? "ready" : "insecure");
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the address is read once, as the page opens
  }, []);

  // An invite found refused as the page opened, by someone who then signed in (or whose sign-up reloaded
  // the page signed in): the Invite dialog says why nothing was joined (the sign-in screen may not have).
  useEffect(() => {
    if (!user || !inviteRefused) return;
    setInviteRefused(null);
    // (the invite itself says, once read as the signed-in person: their channel opens, or why not)
    if (inviteRefused === INVITE_USED_SIGNED_OUT) return;
    void sayRefused(inviteRefused);
  }, [user, inviteRefused]);

  const authenticate = useCallback(async (mode: AuthMode, values: AuthValues) => {
    setBusy(true);
    setError(null);
    try {
      if (mode === "signup") {
        const { signUp } = await import("~/features/auth/signup.client");
        const signedUp = await signUp(values);
        forgetSessionEnded();
        // (asked again when the check has not answered yet: the new account is not to be told over its first dialogs)
        const invite = getPendingInvite()?.inviteId;
        const found = invite && (inviteFound.current ?? (await previewInvite(invite))?.status);
        if (found === "used") clearPendingInvite();
        keepRecoveryOffer(signedUp.id);
        setUser(signedUp);
        setOfferRecoveryKey(true);
      } else {
        const { failedSignIns: failed, ...signedIn } = await signIn(values);
        forgetSessionEnded();
        // (sent here by the console: back to it, unless there are failed attempts to tell of first)
        if (failed === 0 && backToConsole()) return;
        setFailedSignIns(failed);
        setUser(signedIn);
      }
      setInvitedTo(undefined);
    } catch (err) {
      if (!(err instanceof AuthError)) console.warn("Authentication error", err);
      setError(err instanceof AuthError && err.message ? err.message : "Authentication failed");
    } finally {
      setBusy(false);
    }
  }, []);

  // Every message shown is checked against the user's key pins: they are read as soon as the user is in
  // (not after the first conversation's page, which would then wait for them).
  const userId = user?.id;
  useEffect(() => {
    if (userId) warmPins(userId);
    // what an earlier page read and had not yet sent to the user's archive (reloaded, closed: ADR 0048)
    if (userId) resumeArchive(userId);
    // what was typed and not sent, kept on this device (sealed) through a reload or a closed tab
    if (userId) startDrafts(userId);
    startProfileCards(userId ?? null);
  }, [userId]);
  // This browser's push subscription follows the page's session: saved again at every start and when
  // the session is renewed (ADR 0024: a signed-out session takes its subscription with it).
  useEffect(() => {
    if (!userId) return;
    const relink = () => void import("~/features/push/push.client").then((m) => m.keepPushLinked(userId));
    relink();
    return onSessionChanged(relink);
  }, [userId]);

  // Signed out elsewhere (Account > Devices on another device, a password change there): this device
  // signs out too, keys and all, and says why on the sign-in screen.
  const signingOut = useRef(false);
  useEffect(() => {
    if (!user) return;
    let ended = false;
    return onSessionEnded((reason) => {
      if (ended || signingOut.current) return;
      ended = true;
      void signOut().finally(() => {
        const said = sessionEndReason(reason) ?? SESSION_ENDED_MESSAGE;
        keepSessionEnded(said);
        setUser(null);
        setFailedSignIns(0);
        setError(said);
      });
    });
  }, [user]);

  const handleSignOut = useCallback(async () => {
    setBusy(true);
    endCall();
    signingOut.current = true;
    forgetRecoveryOffer();
    const notice = await signOut();
    // the next person to sign in on this tab starts with nothing open
    goTo(HOME, { replace: true });
    setUser(null);
    setFailedSignIns(0);
    if (notice) setError(notice);
    setBusy(false);
    signingOut.current = false;
  }, []);

  if (phase === "loading") return <LoadingScreen />;
  if (phase === "insecure") return <InsecureContextScreen />;
  if (!user)
    return (
      <AuthScreen
        busy={busy}
        error={error}
        onSubmit={authenticate}
        onModeChange={() => setError(null)}
        onSignedIn={(signedIn) => {
          forgetSessionEnded();
          if (backToConsole()) return;
          setUser(signedIn);
          setInvitedTo(undefined);
        }}
        invitedTo={inviteRefused ? undefined : invitedTo}
        inviteRefused={inviteRefused}
      />
    );
  return (
    <>
      <Workspace user={user} config={config} onSignOut={handleSignOut} signingOut={busy} />
      <CallDock />
      <InviteDialogs />
      <DeviceApproval user={user} />
      {failedSignIns > 0 && <FailedSignInsNotice count={failedSignIns} onDismiss={() => setFailedSignIns(0)} />}
      {offerRecoveryKey && (
        <RecoveryKeyDialog
          user={user}
          offer
          onClose={() => {
            forgetRecoveryOffer();
            setOfferRecoveryKey(false);
          }}
        />
      )}
    </>
  );
}
