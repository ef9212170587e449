import { ChatPage, chatPageMeta } from "~/features/workspace/ChatPage";
import { pageLoader } from "~/features/workspace/page.server";

// The single page of the product (spec §2): everything else happens in the browser through /api routes.
export const loader = pageLoader;
export const meta = chatPageMeta;
export default ChatPage;
