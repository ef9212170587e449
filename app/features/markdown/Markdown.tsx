import { isValidElement, type ReactNode } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { CodeBlock } from "~/features/markdown/CodeBlock";
import { remarkMentions } from "~/features/markdown/markdown";
import { renderedTrees } from "~/features/markdown/rendered";
import { safeHref } from "~/features/messages/text";

// CommonMark with GitHub's extensions (react-markdown + remark-gfm, docs/decisions/0022), to React
// elements only: raw HTML is dropped (skipHtml), links keep the plain messages' rule (http and https
// only, opened apart), and images are never loaded (a remote image would tell a third party who read
// the message): they show as a link with their description.

const textOf = (node: ReactNode): string => {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return "";
};

const components: Components = {
  a({ href, children }) {
    const safe = href ? safeHref(href) : null;
    return safe ? (
      <a href={safe} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    );
  },
  img({ src, alt }) {
    const safe = typeof src === "string" ? safeHref(src) : null;
    const label = `Image: ${alt || "no description"}`;
    return safe ? (
      <a href={safe} target="_blank" rel="noopener noreferrer" className="md-image">
        {label}
      </a>
    ) : (
      <span className="md-image">{label}</span>
    );
  },
  pre({ children }) {
    const code = Array.isArray(children) ? children[0] : children;
    const className = isValidElement<{ className?: string }>(code) ? (code.props.className ?? "") : "";
    const language = /language-([\w+#-]+)/.exec(className)?.[1] ?? "";
    return <CodeBlock code={textOf(code).replace(/\n$/, "")} language={language} />;
  },
  table({ children }) {
    return (
      <div className="md-table">
        <table>{children}</table>
      </div>
    );
  },
};

// Each message's text is parsed once per version, not again each time its conversation is opened
// (react-markdown's Markdown is a plain function: no hooks).
const rendered = renderedTrees<ReactNode>(2_000);

const render = (text: string, username: string) =>
  ReactMarkdown({ children: text, remarkPlugins: [remarkGfm, [remarkMentions, { username }]], skipHtml: true, components });

/**
 * A message's text read as Markdown (loaded lazily by RichText when the text looks like Markdown);
 * `id` names the message (and the translation shown) whose rendering is kept.
 */
export default function Markdown({ id, text, username, lang }: { id?: string; text: string; username: string; lang?: string }) {
  const key = id === undefined ? text : lang ? `${id}\u0000${lang}` : id;
  return (
    <div className="message-text markdown" lang={lang} dir="auto">
      {rendered(key, text, username, () => render(text, username))}
    </div>
  );
}
