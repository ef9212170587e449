import { looksLikeMarkdown } from "~/features/markdown/markdown";
import { segments } from "~/features/messages/text";
import { lazyPart } from "~/ui/lazyPart";

/** A message's text with http(s) links made clickable and @mentions highlighted (the user's own stand out). */
function PlainText({ text, username, lang }: { id?: string; text: string; username: string; lang?: string }) {
  return (
    <p className="message-text" lang={lang} dir="auto">
      {segments(text).map((s, i) => {
        if (s.kind === "link") {
          return (
            <a key={i} href={s.href} target="_blank" rel="noopener noreferrer">
              {s.text}
            </a>
          );
        }
        if (s.kind === "mention") {
          const own = s.username.toLowerCase() === username.toLowerCase();
          return (
            <mark key={i} className={`mention${own ? " mention-own" : ""}`}>
              {s.text}
            </mark>
          );
        }
        return <span key={i}>{s.text}</span>;
      })}
    </p>
  );
}

// Shown plain while Markdown's parser loads, and if it cannot be loaded (the network is away).
const Markdown = lazyPart(() => import("~/features/markdown/Markdown").then((m) => m.default), {
  fallback: (props) => <PlainText {...props} />,
  whenFailed: (props) => <PlainText {...props} />,
});

/**
 * A message's text: as Markdown when it uses any (its parser loads then), else plain with links and
 * mentions. `id` names the message, whose Markdown is then parsed once per version.
 */
export function RichText(props: { id?: string; text: string; username: string; lang?: string }) {
  if (!looksLikeMarkdown(props.text)) return <PlainText {...props} />;
  return <Markdown {...props} />;
}
