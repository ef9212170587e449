import { useEffect, useRef } from "react";
import type { Track } from "livekit-client";
import type { CallPerson } from "./call-view";
import { callNames } from "./names";

/** How the people of a call are laid out in the expanded view: all alike, or one large (the shared screen, else who speaks). */
export type CallLayout = "grid" | "speaker";

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

function Person({ person, name, featured }: { person: CallPerson; name: string; featured: boolean }) {
  return (
    <li className={`call-person${person.speaking ? " speaking" : ""}${featured ? " featured" : ""}`} data-identity={person.identity}>
      {person.camera ? (
        <TrackView track={person.camera} label={`${name}'s camera`} />
      ) : (
        <div className="call-no-camera" aria-hidden="true" />
      )}
      {person.audio && <TrackView track={person.audio} label={`${name}'s microphone`} />}
      <span className="call-name">
        {name}
        {person.speaking && <span className="call-speaking"> speaking</span>}
        {!person.micOn && <span className="call-muted"> (muted)</span>}
      </span>
    </li>
  );
}

/** Who is featured in the speaker layout when nobody shares a screen: someone else speaking, else the first of the others, else the user. */
function featuredPerson(people: CallPerson[]): string | undefined {
  const others = people.filter((p) => !p.local);
  return (others.find((p) => p.speaking) ?? others[0] ?? people[0])?.identity;
}

/**
 * The call's people and shared screens. A shared screen is shown first and as wide as the call (in the
 * expanded view, the conversation's width); in the speaker layout one person is large when nobody shares.
 */
export function CallStage({ people, layout, expanded }: { people: CallPerson[]; layout: CallLayout; expanded: boolean }) {
  const screens = people.filter((p) => p.screen);
  const speaker = expanded && layout === "speaker";
  const featured = speaker && screens.length === 0 ? featuredPerson(people) : undefined;
  const names = callNames(people);
  const shownName = (person: CallPerson) => names.get(person.identity) ?? person.name;
  return (
    <div className={`call-stage${expanded ? ` expanded ${layout}` : ""}${screens.length ? " sharing" : ""}`}>
      {screens.length > 0 && (
        <ul className="call-screens" aria-label="Shared screens">
          {screens.map((person) => (
            <li key={person.identity} className="call-screen">
              <TrackView track={person.screen!} label={`${shownName(person)}'s screen`} />
              <span className="call-name">{shownName(person)}&apos;s screen</span>
            </li>
          ))}
        </ul>
      )}
      <ul className="call-people" aria-label="Participants">
        {people.map((person) => (
          <Person key={person.identity} person={person} name={shownName(person)} featured={person.identity === featured} />
        ))}
      </ul>
    </div>
  );
}
