/**
 * Each conversation's unsent text, while the page lives (ADR 0096): what was typed in one conversation
 * stays with it when another opens, and is there again on coming back; it never follows into the next
 * conversation, where Enter would send it to other people. Kept in memory only: a draft in the
 * browser's storage would be plaintext there. Sign-out forgets them.
 */
const drafts = new Map<string, string>();

export const draftOf = (conversationId: string) => drafts.get(conversationId) ?? "";

export function keepDraft(conversationId: string, text: string) {
  if (text) drafts.set(conversationId, text);
  else drafts.delete(conversationId);
}

export const forgetDrafts = () => drafts.clear();
