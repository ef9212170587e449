import { useRef, useState, type KeyboardEvent } from "react";
import { formatElapsed } from "~/conversation/files/attachments";

const SEEK_SECONDS = 5;

/**
 * A compact player with a single tab stop (the native controls cost five): the button plays and
 * pauses, Left and Right seek 5 s; the position and length are shown beside it.
 */
export function AudioPlayer({ src, name }: { src: string; name: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [length, setLength] = useState<number | null>(null);
  // A recorded webm carries no duration: seeking far past its end makes the browser find it.
  const probing = useRef(false);

  function learnLength(player: HTMLAudioElement) {
    if (Number.isFinite(player.duration)) {
      setLength(player.duration);
      if (probing.current) {
        probing.current = false;
        player.currentTime = 0;
      }
    } else if (!probing.current && player.duration === Infinity) {
      probing.current = true;
      player.currentTime = 1e101;
    }
  }

  function toggle() {
    const player = audio.current;
    if (!player) return;
    if (player.paused) void player.play().catch(() => setPlaying(false));
    else player.pause();
  }

  function seek(event: KeyboardEvent<HTMLButtonElement>) {
    const player = audio.current;
    const step = event.key === "ArrowRight" ? SEEK_SECONDS : event.key === "ArrowLeft" ? -SEEK_SECONDS : 0;
    if (!player || step === 0) return;
    event.preventDefault();
    const end = Number.isFinite(player.duration) ? player.duration : Infinity;
    player.currentTime = Math.min(end, Math.max(0, player.currentTime + step));
  }

  const known = (seconds: number | null) => seconds !== null && Number.isFinite(seconds);
  return (
    <div className="audio-player">
      {/* A recorded voice message has no transcript to offer as captions. */}
      {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
      <audio
        ref={audio}
        src={src}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        onTimeUpdate={(e) => !probing.current && setPosition(e.currentTarget.currentTime)}
        onLoadedMetadata={(e) => learnLength(e.currentTarget)}
        onDurationChange={(e) => learnLength(e.currentTarget)}
      />
      <button type="button" className="btn btn-small audio-toggle" aria-pressed={playing} onClick={toggle} onKeyDown={seek}>
        {playing ? "Pause" : "Play"}
        <span className="visually-hidden"> audio message {name}</span>
      </button>
      <span className="audio-time">
        {formatElapsed(position * 1000)}
        {known(length) ? ` / ${formatElapsed((length ?? 0) * 1000)}` : ""}
      </span>
    </div>
  );
}
