import { useEffect, useRef, useState } from "react";
import { DevicePicker } from "./DevicePicker";
import { usePreview, type DeviceChoice } from "./preview.client";

/**
 * Before joining: the user's own camera (seen only here), their microphone's level, the devices to
 * choose from, and "Join call" (or Cancel). Nothing reaches the call until they join.
 */
export function PreJoin({ onJoin, onCancel }: { onJoin: (choice: DeviceChoice) => void; onCancel: () => void }) {
  const [choice, setChoice] = useState<DeviceChoice>({});
  const preview = usePreview(choice);
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current) video.current.srcObject = preview.stream;
  }, [preview.stream]);
  // (the check opens with "Join call" focused; Esc cancels it, as Esc closes the ring)
  const join = useRef<HTMLButtonElement>(null);
  const group = useRef<HTMLDivElement>(null);
  const cancel = useRef(onCancel);
  cancel.current = onCancel;
  useEffect(() => {
    join.current?.focus();
    const element = group.current;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      event.preventDefault();
      cancel.current();
    };
    element?.addEventListener("keydown", onKey);
    return () => element?.removeEventListener("keydown", onKey);
  }, []);
  const hasCamera = preview.stream?.getVideoTracks().length;
  const percent = Math.round(preview.level * 100);
  return (
    <div className="call-check" role="group" aria-label="Check your camera and microphone" ref={group}>
      {hasCamera ? (
        <video ref={video} autoPlay playsInline muted aria-label="Your camera" className="call-video call-check-video" />
      ) : (
        <div className="call-no-camera call-check-video" aria-hidden="true" />
      )}
      {preview.error && (
        <p className="call-error" role="alert">
          {preview.error}
        </p>
      )}
      <div className="call-level">
        <span id="call-level-label">Microphone level</span>
        <meter aria-labelledby="call-level-label" min={0} max={100} low={5} value={percent} className="call-level-meter">
          {percent}%
        </meter>
      </div>
      <DevicePicker
        devices={preview.devices}
        disabled={false}
        onChoose={(kind, id) => setChoice((c) => (kind === "audioinput" ? { ...c, microphone: id } : { ...c, camera: id }))}
      />
      <div className="call-controls">
        <button
          ref={join}
          type="button"
          className="btn btn-small btn-primary"
          onClick={() => onJoin({ microphone: preview.devices.microphone || undefined, camera: preview.devices.camera || undefined })}
        >
          Join call
        </button>
        <button type="button" className="btn btn-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
