import { useId } from "react";
import type { CallDevices } from "./devices.client";

/** The call's microphone and camera, chosen from those the browser offers; a change switches at once. */
export function DevicePicker({
  devices,
  disabled = false,
  onChoose,
}: {
  devices: CallDevices;
  disabled?: boolean;
  onChoose: (kind: "audioinput" | "videoinput", deviceId: string) => void;
}) {
  const id = useId();
  const pickers = [
    { kind: "audioinput" as const, label: "Microphone", options: devices.microphones, value: devices.microphone },
    { kind: "videoinput" as const, label: "Camera", options: devices.cameras, value: devices.camera },
  ];
  return (
    <div className="call-devices">
      {pickers.map(({ kind, label, options, value }) => (
        <div key={kind} className="call-device">
          <label htmlFor={`${id}-${kind}`}>{label}</label>
          <select
            id={`${id}-${kind}`}
            value={value}
            disabled={disabled || options.length === 0}
            onChange={(e) => onChoose(kind, e.target.value)}
          >
            {options.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      ))}
    </div>
  );
}
