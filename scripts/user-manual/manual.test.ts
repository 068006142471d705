import { readFileSync } from 'node:fs';
import { MANUAL_FILE, renderManual } from './manual';
import { renderPdf, textWidth, wrap } from './pdf';

describe('user manual', () => {
  it('the shipped portal/public/user-manual.pdf is what its source renders (run scripts/user-manual/manual.ts)', () => {
    expect(readFileSync(MANUAL_FILE).equals(renderManual())).toBe(true);
  });

  it('is a well-formed PDF: every xref offset points at its object, startxref at the table', () => {
    const pdf = renderPdf(
      [
        { kind: 'title', text: 'Manual (draft)' },
        ...Array.from({ length: 80 }, (_, i) => ({ kind: 'paragraph' as const, text: `Paragraph ${i} with a back\\slash` })),
      ],
      { title: 'T', footer: 'F' },
    ).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)?.[1]);
    expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
    const entries = [...pdf.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    entries.forEach((offset, i) => expect(pdf.slice(offset).startsWith(`${i + 1} 0 obj`)).toBe(true));
    expect(Number(/\/Count (\d+) >>/.exec(pdf)?.[1])).toBeGreaterThan(1); // 80 paragraphs do not fit one page
    expect(pdf).toContain('(Manual \\(draft\\)) Tj');
    expect(pdf).toContain('back\\\\slash');
  });

  it('wraps text to the width it is given', () => {
    const lines = wrap('The BA Portal is where business associates register with an MLL company', 150, 10.5);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(textWidth(line, 10.5)).toBeLessThanOrEqual(150);
  });
});
