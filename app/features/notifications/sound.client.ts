// A short two-tone chime, generated with Web Audio (no sound file needed).
let context: AudioContext | null = null;

export function playChime() {
  try {
    context ??= new AudioContext();
    const now = context.currentTime;
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.18);
      osc.connect(gain).connect(context.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.2);
    }
  } catch {
    // Sound is a nicety: browsers may refuse audio before the first user gesture.
  }
}
