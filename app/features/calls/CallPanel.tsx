import { useEffect, useRef, useState, useSyncExternalStore, type CSSProperties } from "react";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { CallSession } from "./session.client";
import { DevicePicker } from "./DevicePicker";
import { CallStage, type CallLayout } from "./CallStage";
import { PreJoin } from "./PreJoin";
import type { DeviceChoice } from "./preview.client";
import { useConversationBox } from "./useConversationBox.client";
import { onCallDeclined } from "./ring.client";
import { useWhoLeft } from "./useWhoLeft";
import { removedByAdministrator } from "~/conversation/senders/words";
import { messageBox } from "~/ui/message-box";

/** The call window's gap above the composer, the space the page's header takes, and its least height. */
const ABOVE_COMPOSER_PX = 8;
const HEADER_PX = 72;
const MIN_HEIGHT_PX = 120;

/**
 * The call window: first the check of devices (unless the call was answered from a ring), then who is
 * in the call (and speaking), the shared screens, the media controls, and whether it is end-to-end
 * encrypted. It floats over the workspace, or, expanded, covers the open conversation.
 */
export default function CallPanel({
  user,
  channel,
  check,
  onLeave,
  onEnded,
}: {
  user: SessionUser;
  channel: Channel;
  check: boolean;
  onLeave: () => void;
  /** The call ended on this page: the window stays, saying why, until closed. */
  onEnded: () => void;
}) {
  const [session] = useState(() => new CallSession(user, channel));
  const [choice, setChoice] = useState<DeviceChoice | null>(check ? null : {});
  const view = useSyncExternalStore(
    (listener) => session.subscribe(listener),
    () => session.view,
    () => session.view,
  );
  const joining = choice !== null;
  // Focus: into the window when it opens without its check (answered from a ring: the ring's dialog
  // took it along), and back to the control that opened it (Start call, the bar's Join call) when it
  // closes, else to the message box: the focus fell to the page.
  const section = useRef<HTMLElement>(null);
  // (read while rendering, before the check's own effect moves the focus to its "Join call")
  const [opener] = useState(() => {
    const active = typeof document === "undefined" ? null : document.activeElement;
    return active instanceof HTMLElement && active !== document.body ? active : null;
  });
  useEffect(() => {
    const panel = section.current;
    const active = document.activeElement;
    // (answered from a ring: always, though the ring's dialog gave the focus back to where it was)
    if (!check || !active || active === document.body)
      (panel?.querySelector<HTMLElement>(".call-controls button") ?? panel?.querySelector<HTMLElement>("button"))?.focus();
    return () => {
      const now = document.activeElement;
      if (now && now !== document.body && !panel?.contains(now)) return;
      if (opener?.isConnected) opener.focus();
      else messageBox()?.focus();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- (how the window opened: its first render's `check`)
  }, [opener]);
  // (joined from the check, whose "Join call" went with it: the call's own controls take the focus)
  useEffect(() => {
    const active = document.activeElement;
    if (joining && (!active || active === document.body)) section.current?.querySelector<HTMLElement>(".call-controls button")?.focus();
  }, [joining]);
  // (the window closing leaves the call, or drops what was prepared for it before joining)
  useEffect(() => () => void session.leave(), [session]);
  useEffect(() => {
    if (!choice) return;
    void session.join(choice);
    // Diagnostics of the call (what this page receives), for support and the browser tests.
    const diagnostics = globalThis as { chatcryptCall?: unknown };
    diagnostics.chatcryptCall = { stats: () => session.stats(), view: () => session.view };
    return () => void delete diagnostics.chatcryptCall;
  }, [session, choice]);
  // Minimized: the window shrinks to its title and controls. Expanded: it covers the conversation.
  const [minimized, setMinimized] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const [layout, setLayout] = useState<CallLayout>("grid");
  const box = useConversationBox(expanded && !minimized);
  // (not expanded, the window stays above the open conversation's composer: it covered the message box)
  const composer = useConversationBox(!(expanded && !minimized), ".chat-main .composer");
  useEffect(() => {
    if (!expanded) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !document.querySelector("[role=dialog]")) setExpanded(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [expanded]);
  // (someone who declined the ring: said until the next one does, or someone joins)
  const [declined, setDeclined] = useState<string | null>(null);
  useEffect(() => onCallDeclined(setDeclined), []);
  const others = view.people.length > 1;
  const left = useWhoLeft(view);
  const title = channel.direct ? `Call with @ ${channel.name}` : `Call in # ${channel.name}`;
  const large = expanded && !minimized;
  const place: CSSProperties | undefined =
    large && box
      ? { top: box.top, left: box.left, width: box.width, height: box.height }
      : composer
        ? ({
            bottom: window.innerHeight - composer.top + ABOVE_COMPOSER_PX,
            "--call-room": `${Math.max(composer.top - HEADER_PX, MIN_HEIGHT_PX)}px`,
          } as CSSProperties)
        : undefined;
  const ended = view.state === "ended";
  useEffect(() => {
    if (ended) onEnded();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- (once, as it ends)
  }, [ended]);
  return (
    <section
      ref={section}
      className={`call-panel${minimized ? " minimized" : ""}${large ? " expanded" : ""}`}
      aria-label="Call"
      style={place}
    >
      <header className="call-header">
        <h2>{title}</h2>
        {joining && !ended && (
          <button
            type="button"
            className="btn btn-small call-expand"
            aria-pressed={large}
            onClick={() => {
              setMinimized(false);
              setExpanded(!large);
            }}
          >
            Expand call
          </button>
        )}
        <button
          type="button"
          className="btn btn-small call-minimize"
          aria-expanded={!minimized}
          onClick={() => {
            setExpanded(false);
            setMinimized((m) => !m);
          }}
        >
          {minimized ? "Show call" : "Minimize"}
        </button>
        {view.encrypted && !ended && <span className="e2ee-badge call-e2ee">End-to-end encrypted</span>}
        {joining && view.state === "connecting" && <span role="status">Connecting…</span>}
        {view.state === "reconnecting" && <span role="status">Reconnecting…</span>}
        {/* (once it ended here, only why it ended is said) */}
        {declined && !others && !ended && <span role="status">{declined} declined the call.</span>}
        {left && !ended && (
          <span role="status">
            {`${left.removed ? removedByAdministrator(left.name) : `${left.name} left the call`}.${others ? "" : " You are the only one in it."}`}
          </span>
        )}
      </header>
      {!joining ? (
        !minimized && <PreJoin onJoin={setChoice} onCancel={onLeave} />
      ) : ended ? (
        // Ended here: why, and Close; nothing of a call goes on (Start call in the header starts it again).
        <>
          {view.error && (
            <p className="call-error" role="alert">
              {view.error}
            </p>
          )}
          <div className="call-controls">
            <button type="button" className="btn btn-small btn-danger" onClick={onLeave}>
              Close
            </button>
          </div>
        </>
      ) : (
        <>
          {view.error && (
            <p className="call-error" role="alert">
              {view.error}
            </p>
          )}
          {large && (
            <div className="call-layouts" role="group" aria-label="Layout">
              {(["grid", "speaker"] as const).map((name) => (
                <button key={name} type="button" className="btn btn-small" aria-pressed={layout === name} onClick={() => setLayout(name)}>
                  {name === "grid" ? "Grid" : "Speaker"}
                </button>
              ))}
            </div>
          )}
          {!minimized && <CallStage people={view.people} layout={layout} expanded={large} />}
          {!minimized && <DevicePicker devices={view.devices} onChoose={session.chooseDevice} />}
          <div className="call-controls">
            <button type="button" className="btn btn-small" onClick={() => void session.setMicrophone(!view.micOn)}>
              {view.micOn ? "Mute" : "Unmute"}
            </button>
            <button type="button" className="btn btn-small" onClick={() => void session.setCamera(!view.cameraOn)}>
              {view.cameraOn ? "Camera off" : "Camera on"}
            </button>
            <button
              type="button"
              className="btn btn-small"
              aria-pressed={view.sharing}
              onClick={() => void session.setScreenShare(!view.sharing)}
            >
              {view.sharing ? "Stop sharing" : "Share screen"}
            </button>
            <button type="button" className="btn btn-small btn-danger" onClick={onLeave}>
              Leave call
            </button>
          </div>
        </>
      )}
    </section>
  );
}
