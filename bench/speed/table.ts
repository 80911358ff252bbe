/** Rows (the first one the header) as a Markdown table. */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  const [header, ...body] = rows;
  return [header!, header!.map(() => "---"), ...body].map((r) => `| ${r.join(" | ")} |`).join("\n");
}
