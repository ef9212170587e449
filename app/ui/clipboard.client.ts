/** Puts a text on the clipboard; answers false where the browser refuses (no permission, no focus). */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
