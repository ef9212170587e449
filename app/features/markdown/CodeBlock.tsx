import { useEffect, useState } from "react";
import { highlightWhenIdle } from "~/features/markdown/highlight.client";

/**
 * A fenced code block, scrolled sideways rather than wrapped, with Copy. It shows its plain code at
 * once and its colours when the browser is idle (the same text in the same font and box: nothing moves).
 */
export function CodeBlock({ code, language }: { code: string; language: string }) {
  const [html, setHtml] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    setHtml(null);
    return highlightWhenIdle(code, language, setHtml);
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
          <code className={language ? `language-${language}` : undefined}>{code}</code>
        ) : (
          // highlight.js escapes the code's text; its markup is spans with hljs-* classes
          <code className={`hljs language-${language}`} dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </pre>
    </div>
  );
}
