import { useId, useState } from "react";
import { FormActions, FormError } from "~/ui/Form";
import { Modal } from "~/ui/Modal";
import { WorldClock } from "~/features/world-clock/WorldClock";
import { MAX_CLOCK_CITIES, WORLD_CLOCK_CITIES, toggleCity } from "~/features/world-clock/world-clock";

/** World Clock Settings (spec §5): the time now in the chosen cities; 1 to 7 of the 12 cities; other boxes disabled at 7, Save disabled at 0. */
export function WorldClockSettingsModal(props: {
  cities: string[];
  busy: boolean;
  error: string | null;
  onSave: (cities: string[]) => void;
  onClose: () => void;
}) {
  const [selected, setSelected] = useState<string[]>(props.cities);
  const hintId = useId();
  const full = selected.length >= MAX_CLOCK_CITIES;
  return (
    <Modal title="World Clock Settings" onClose={props.onClose}>
      {/* the time in each city, here too: a phone's top bar has no room for it */}
      <div className="world-clock-now">
        <WorldClock cities={props.cities} />
      </div>
      <p id={hintId} className="hint">
        Choose up to {MAX_CLOCK_CITIES} cities ({selected.length} selected).
      </p>
      <div className="city-grid" role="group" aria-describedby={hintId}>
        {WORLD_CLOCK_CITIES.map((city) => {
          const checked = selected.includes(city.name);
          return (
            <label key={city.name} className="check">
              <input
                type="checkbox"
                checked={checked}
                disabled={!checked && full}
                onChange={() => setSelected((current) => toggleCity(current, city.name))}
              />
              {city.name}
            </label>
          );
        })}
      </div>
      <FormError message={props.error} />
      <FormActions
        busy={props.busy}
        submitLabel="Save"
        onCancel={props.onClose}
        onConfirm={() => props.onSave(selected)}
        disabled={selected.length === 0}
      />
    </Modal>
  );
}
