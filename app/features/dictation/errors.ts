// The Web Speech API reports failures as codes; people read these sentences instead.
const MESSAGES: Record<string, string> = {
  "audio-capture": "Dictation stopped: no microphone was found. Check that one is connected.",
  "not-allowed": "Dictation stopped: the browser is not allowed to use the microphone. Allow it in the site settings.",
  "service-not-allowed": "Dictation stopped: speech recognition is turned off in this browser.",
  network: "Dictation stopped: the browser's speech service could not be reached. Check the connection and try again.",
  "language-not-supported": "Dictation stopped: speech recognition does not support this language.",
  "bad-grammar": "Dictation stopped: speech recognition failed. Please try again.",
};

/** The sentence for a speech recognition error code; null for the codes that need no message. */
export function dictationErrorMessage(code: string | undefined): string | null {
  if (!code || code === "no-speech" || code === "aborted") return null;
  return MESSAGES[code] ?? "Dictation stopped unexpectedly. Please try again.";
}
