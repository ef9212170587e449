// Markdown messages for the bench's history: bold, inline code, a list and a quote; one in ten a fenced
// TypeScript block of a few lines (highlighted by the page).
export function markdownMessage(i) {
  if (i % 10 === 0)
    return [
      `Message ${i} with code:`,
      "```ts",
      `export function sum${i}(values: number[]): number {`,
      "  let total = 0;",
      "  for (const v of values) total += v; // add each one",
      '  return total > 100 ? Math.round(total) : Number(total.toFixed(2)) + " ".length;',
      "}",
      "```",
    ].join("\n");
  return `**Message ${i}** of the bench with \`inline code\`:\n\n- the quick brown fox\n- jumps over\n\n> the lazy dog`;
}
