/**
 * A very small PDF writer for text documents: A4 pages, the standard Helvetica fonts (no embedding), headings,
 * paragraphs and bullets wrapped to the page. Enough for the user manual without a PDF library; the output is
 * deterministic (no dates, no ids), so the shipped file can be checked against its source.
 */
export type Block = { kind: 'title' | 'subtitle' | 'heading' | 'paragraph' | 'bullet'; text: string };

const PAGE = { width: 595, height: 842, margin: 56 };

// Helvetica's advance widths (AFM, 1/1000 em) for ASCII 32..126.
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556,
  556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

type Style = { font: 'F1' | 'F2'; size: number; before: number; after: number; indent: number };

const STYLE: Record<Block['kind'], Style> = {
  title: { font: 'F2', size: 22, before: 0, after: 6, indent: 0 },
  subtitle: { font: 'F1', size: 11, before: 0, after: 18, indent: 0 },
  heading: { font: 'F2', size: 14, before: 14, after: 4, indent: 0 },
  paragraph: { font: 'F1', size: 10.5, before: 3, after: 3, indent: 0 },
  bullet: { font: 'F1', size: 10.5, before: 1, after: 1, indent: 14 },
};

export function textWidth(text: string, size: number, bold = false): number {
  let units = 0;
  for (const ch of text) units += HELVETICA[ch.charCodeAt(0) - 32] ?? 556;
  // Helvetica-Bold runs about 8% wider: close enough to wrap safely.
  return (units * size * (bold ? 1.08 : 1)) / 1000;
}

export function wrap(text: string, width: number, size: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, size, bold) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

/** Lays the blocks out on pages (a heading never ends a page) and returns each page's content stream. */
function layout(blocks: readonly Block[], footer: string): string[] {
  const pages: string[][] = [[]];
  const usable = PAGE.width - 2 * PAGE.margin;
  let y = PAGE.height - PAGE.margin;
  const newPage = () => {
    pages.push([]);
    y = PAGE.height - PAGE.margin;
  };
  for (const [i, block] of blocks.entries()) {
    const s = STYLE[block.kind];
    const leading = s.size * 1.35;
    const lines = wrap(block.text, usable - s.indent, s.size, s.font === 'F2');
    const keepWithNext = block.kind === 'heading' && blocks[i + 1] ? 3 * leading : 0;
    if (y - s.before - lines.length * leading - keepWithNext < PAGE.margin + 20) newPage();
    y -= s.before;
    for (const [j, line] of lines.entries()) {
      y -= leading;
      const x = PAGE.margin + s.indent;
      if (block.kind === 'bullet' && j === 0)
        pages.at(-1)?.push(`BT /F1 ${s.size} Tf ${PAGE.margin + 3} ${y.toFixed(2)} Td (-) Tj ET`);
      pages.at(-1)?.push(`BT /${s.font} ${s.size} Tf ${x} ${y.toFixed(2)} Td (${escape(line)}) Tj ET`);
    }
    y -= s.after;
  }
  return pages.map((ops, i) => {
    const label = `${footer} - page ${i + 1} of ${pages.length}`;
    const x = (PAGE.width - textWidth(label, 8)) / 2;
    return [...ops, `BT /F1 8 Tf ${x.toFixed(2)} ${PAGE.margin / 2} Td (${escape(label)}) Tj ET`].join('\n');
  });
}

/** A complete PDF 1.4 file: catalog, page tree, two standard fonts, one content stream per page, xref. */
export function renderPdf(blocks: readonly Block[], options: { title: string; footer: string }): Buffer {
  const contents = layout(blocks, options.footer);
  const objects: string[] = [];
  const pageIds = contents.map((_, i) => 6 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[5] = `<< /Title (${escape(options.title)}) /Producer (BA Portal scripts/user-manual) >>`;
  contents.forEach((content, i) => {
    const pageId = 6 + i * 2;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });

  let out = '%PDF-1.4\n%\xE2\xE3\xCF\xD3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out, 'latin1');
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
