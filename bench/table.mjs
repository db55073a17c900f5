/**
 * A Markdown table as lines. `align` is the number of leading columns aligned
 * left (the others right), or one letter per column, `l` or `r`.
 */
export function markdownTable(header, rows, align = 2) {
  const left = header.map((_, i) => (typeof align === 'number' ? i < align : align[i] === 'l'));
  const table = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const cells = (row) => row.map((cell, i) => (left[i] ? cell.padEnd(widths[i]) : cell.padStart(widths[i])));
  return [
    `| ${cells(table[0]).join(' | ')} |`,
    `| ${widths.map((w, i) => (left[i] ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`,
    ...table.slice(1).map((row) => `| ${cells(row).join(' | ')} |`),
  ];
}
