import { useCallback, useEffect, useRef, useState } from "react";

export const DICTATION_UNSUPPORTED = "Speech recognition is not supported in your browser";

type Recognition = {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onresult: ((event: { resultIndex: number; results: ArrayLike<{ isFinal: boolean; 0: { transcript: string } }> }) => void) | null;
  onend: (() => void) | null;
  onerror: ((event: { error?: string }) => void) | null;
  start(): void;
  stop(): void;
};

function recognitionClass(): (new () => Recognition) | null {
  const w = window as unknown as { SpeechRecognition?: new () => Recognition; webkitSpeechRecognition?: new () => Recognition };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/** Voice dictation with the Web Speech API: recognised phrases are handed to `onText`; off stops listening. */
export function useDictation(onText: (text: string) => void, onError: (message: string) => void) {
  const [listening, setListening] = useState(false);
  const recognition = useRef<Recognition | null>(null);
  const handlers = useRef({ onText, onError });
  handlers.current = { onText, onError };

  const stop = useCallback(() => {
    recognition.current?.stop();
    recognition.current = null;
    setListening(false);
  }, []);

  const start = useCallback(() => {
    const Speech = recognitionClass();
    if (!Speech) return handlers.current.onError(DICTATION_UNSUPPORTED);
    const rec = new Speech();
    rec.continuous = true;
    rec.interimResults = false;
    rec.lang = navigator.language || "en-US";
    rec.onresult = (event) => {
      for (let i = event.resultIndex; i < event.results.length; i++) {
        const result = event.results[i];
        if (result.isFinal && result[0].transcript.trim()) handlers.current.onText(result[0].transcript);
      }
    };
    // (the sentences for the errors load when there is one)
    rec.onerror = (event) =>
      void import("~/features/dictation/errors").then(({ dictationErrorMessage }) => {
        const message = dictationErrorMessage(event.error);
        if (message) handlers.current.onError(message);
      });
    rec.onend = () => {
      if (recognition.current === rec) {
        recognition.current = null;
        setListening(false);
      }
    };
    try {
      rec.start();
    } catch {
      return handlers.current.onError(DICTATION_UNSUPPORTED);
    }
    recognition.current = rec;
    setListening(true);
  }, []);

  useEffect(() => () => recognition.current?.stop(), []);

  return { listening, start, stop, toggle: () => (recognition.current ? stop() : start()) };
}
