import { segments } from "~/features/messages/text";

/**
 * Whether a text may hold Markdown worth parsing: emphasis, code, quotes, lists, headings, tables,
 * links or strikethrough. Plain texts (most chat messages) skip the parser, whose code loads only
 * when a message first needs it.
 */
const SYNTAX = /[*_`~|[\]\\]|^\s{0,3}(?:>|#{1,6}\s|[-+*]\s|\d{1,9}[.)]\s)|&[#\w]+;/m;
export const looksLikeMarkdown = (text: string) => SYNTAX.test(text);

interface TextNode {
  type: "text";
  value: string;
}
interface MentionNode {
  type: "mention";
  value: string;
  data: { hName: "mark"; hProperties: { className: string[] }; hChildren: TextNode[] };
}
interface Parent {
  type: string;
  children?: (Parent | TextNode)[];
}

/** @mentions inside Markdown text become <mark> elements, the user's own standing out, as in plain messages. */
export function remarkMentions(options: { username: string }) {
  const own = options.username.toLowerCase();
  const split = (node: TextNode): (TextNode | MentionNode)[] =>
    segments(node.value).map((s) =>
      s.kind === "mention"
        ? {
            type: "mention",
            value: s.text,
            data: {
              hName: "mark",
              hProperties: { className: s.username.toLowerCase() === own ? ["mention", "mention-own"] : ["mention"] },
              hChildren: [{ type: "text", value: s.text }],
            },
          }
        : { type: "text", value: s.text },
    );
  const walk = (parent: Parent) => {
    // code, inline code and links keep their text as it is
    if (!parent.children || parent.type === "link" || parent.type === "linkReference") return;
    parent.children = parent.children.flatMap((child) =>
      child.type === "text" ? (split(child as TextNode) as (Parent | TextNode)[]) : [child],
    );
    for (const child of parent.children) if (child.type !== "text" && child.type !== "mention") walk(child as Parent);
  };
  return (tree: Parent) => walk(tree);
}
