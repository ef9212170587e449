import { useEffect, useState } from "react";
import { highlight, highlighted } from "~/features/markdown/highlight.client";

/** A fenced code block: highlighted when its language is known, scrolled sideways rather than wrapped, with Copy. */
export function CodeBlock({ code, language }: { code: string; language: string }) {
  const [html, setHtml] = useState<string | null>(() => highlighted(code, language) ?? null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (highlighted(code, language) !== undefined) return setHtml(highlighted(code, language) ?? null);
    let current = true;
    highlight(code, language).then(
      (found) => current && setHtml(found),
      (error) => console.warn("Code could not be highlighted", error),
    );
    return () => void (current = false);
  }, [code, language]);

  const copy = () =>
    navigator.clipboard.writeText(code).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      },
      (error) => console.warn("The code could not be copied", error),
    );

  return (
    <div className="code-block">
      <div className="code-block-bar">
        <span className="code-block-language">{language}</span>
        <button
          type="button"
          className="btn btn-small"
          aria-label={`Copy code${language ? ` (${language})` : ""}`}
          onClick={() => void copy()}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- code that scrolls sideways must be reachable by keyboard */}
      <pre tabIndex={0} aria-label={`Code${language ? ` in ${language}` : ""}`}>
        {html === null ? (
          <code>{code}</code>
        ) : (
          // highlight.js escapes the code's text; its markup is spans with hljs-* classes
          <code className={`hljs language-${language}`} dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </pre>
    </div>
  );
}
