import { ChatPage, chatPageMeta } from "~/features/workspace/ChatPage";
import { pageLoader } from "~/features/workspace/page.server";

// A conversation's address (`/c/<id>`, with `/t/<thread>` or `/m/<message>`; ADR 0062): the same page
// as `/`, for every address under /c/ (one that names nothing is the page's to say so, not a 404).
export const loader = pageLoader;
export const meta = chatPageMeta;
export default ChatPage;
