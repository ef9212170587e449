import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { Track } from "livekit-client";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/features/channels/types";
import { CallSession, type CallPerson } from "./session.client";
import { DevicePicker } from "./DevicePicker";

/** Shows one track (a camera, a shared screen, or a remote microphone) while it is mounted. */
function TrackView({ track, label }: { track: Track; label: string }) {
  const ref = useRef<HTMLMediaElement | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    track.attach(element);
    return () => void track.detach(element);
  }, [track]);
  // A live call's sound has no caption track to offer.
  // eslint-disable-next-line jsx-a11y/media-has-caption
  if (track.kind === "audio") return <audio ref={(el) => void (ref.current = el)} autoPlay />;
  return <video ref={(el) => void (ref.current = el)} autoPlay playsInline muted aria-label={label} className="call-video" />;
}

function Person({ person }: { person: CallPerson }) {
  const name = person.local ? `${person.name} (you)` : person.name;
  return (
    <li className={`call-person${person.speaking ? " speaking" : ""}`} data-identity={person.identity}>
      {person.camera && <TrackView track={person.camera} label={`${name}'s camera`} />}
      {person.screen && <TrackView track={person.screen} label={`${name}'s screen`} />}
      {person.audio && <TrackView track={person.audio} label={`${name}'s microphone`} />}
      <span className="call-name">
        {name}
        {person.speaking && <span className="call-speaking"> speaking</span>}
        {!person.micOn && <span className="call-muted"> (muted)</span>}
      </span>
    </li>
  );
}

/** The call window: who is in it (and speaking), the media controls, and whether it is end-to-end encrypted. */
export default function CallPanel({ user, channel, onLeave }: { user: SessionUser; channel: Channel; onLeave: () => void }) {
  const [session] = useState(() => new CallSession(user, channel));
  const view = useSyncExternalStore(
    (listener) => session.subscribe(listener),
    () => session.view,
    () => session.view,
  );
  useEffect(() => {
    void session.join();
    // Diagnostics of the call (what this page receives), for support and the browser tests.
    const diagnostics = globalThis as { chatcryptCall?: unknown };
    diagnostics.chatcryptCall = { stats: () => session.stats(), view: () => session.view };
    return () => {
      delete diagnostics.chatcryptCall;
      void session.leave();
    };
  }, [session]);
  // Minimized: the window shrinks to its title and controls, out of the way of the page beneath.
  const [minimized, setMinimized] = useState(false);
  const title = channel.direct ? `Call with @ ${channel.name}` : `Call in # ${channel.name}`;
  return (
    <section className={`call-panel${minimized ? " minimized" : ""}`} aria-label="Call">
      <header className="call-header">
        <h2>{title}</h2>
        <button type="button" className="btn btn-small call-minimize" aria-expanded={!minimized} onClick={() => setMinimized((m) => !m)}>
          {minimized ? "Show call" : "Minimize"}
        </button>
        {view.encrypted && <span className="e2ee-badge call-e2ee">End-to-end encrypted</span>}
        {view.state === "connecting" && <span role="status">Connecting…</span>}
        {view.state === "reconnecting" && <span role="status">Reconnecting…</span>}
      </header>
      {view.error && (
        <p className="call-error" role="alert">
          {view.error}
        </p>
      )}
      <ul className="call-people" aria-label="Participants" hidden={minimized}>
        {view.people.map((person) => (
          <Person key={person.identity} person={person} />
        ))}
      </ul>
      {!minimized && <DevicePicker devices={view.devices} disabled={view.state === "ended"} onChoose={session.chooseDevice} />}
      <div className="call-controls">
        <button
          type="button"
          className="btn btn-small"
          disabled={view.state === "ended"}
          onClick={() => void session.setMicrophone(!view.micOn)}
        >
          {view.micOn ? "Mute" : "Unmute"}
        </button>
        <button
          type="button"
          className="btn btn-small"
          disabled={view.state === "ended"}
          onClick={() => void session.setCamera(!view.cameraOn)}
        >
          {view.cameraOn ? "Camera off" : "Camera on"}
        </button>
        <button
          type="button"
          className="btn btn-small"
          aria-pressed={view.sharing}
          disabled={view.state === "ended"}
          onClick={() => void session.setScreenShare(!view.sharing)}
        >
          {view.sharing ? "Stop sharing" : "Share screen"}
        </button>
        <button type="button" className="btn btn-small btn-danger" onClick={onLeave}>
          {view.state === "ended" ? "Close" : "Leave call"}
        </button>
      </div>
    </section>
  );
}
