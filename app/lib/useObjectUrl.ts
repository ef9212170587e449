import { useEffect, useRef, useState } from "react";

/** Loads an object URL once (decrypting a file or image); `load` null means nothing to load. */
export function useObjectUrl(load: (() => Promise<string>) | null) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const loadRef = useRef(load);
  loadRef.current = load;
  const wanted = load !== null;
  useEffect(() => {
    const current = loadRef.current;
    if (!current) return;
    let live = true;
    current().then(
      (u) => live && setUrl(u),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
    // The loader's identity changes every render; the file it stands for does not.
  }, [wanted]);
  return { url, failed };
}
