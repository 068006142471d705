import { fileKindOf, formatFileSize } from './FileTypeIcon';

describe('fileKindOf', () => {
  it.each([
    [{ fileName: 'a.bin', fileType: 'application/pdf' }, 'pdf'],
    [{ fileName: 'scan', fileType: 'image/jpeg' }, 'image'],
    [{ fileName: 'x', fileType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }, 'excel'],
    [{ fileName: 'x', fileType: 'application/vnd.ms-excel' }, 'excel'],
    [{ fileName: 'x', fileType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }, 'word'],
    [{ fileName: 'x', fileType: 'application/msword' }, 'word'],
  ] as const)('trusts the recorded MIME type first: %j → %s', (file, kind) => {
    expect(fileKindOf(file)).toBe(kind);
  });

  it.each([
    ['Rate Card.XLSX', 'excel'],
    ['terms.pdf', 'pdf'],
    ['photo.jpeg', 'image'],
    ['conduct.docx', 'word'],
    ['archive.zip', 'other'],
    ['no-extension', 'other'],
  ] as const)('falls back on the extension: %s → %s', (fileName, kind) => {
    expect(fileKindOf({ fileName, fileType: 'application/octet-stream' })).toBe(kind);
  });
});

test.each([
  [0, '0 bytes'],
  [512, '512 bytes'],
  [20_480, '20 KB'],
  [1_572_864, '1.5 MB'],
  [20 * 1024 * 1024, '20 MB'],
  [150 * 1024 * 1024, '150 MB'],
  [null, 'NA'],
])('formatFileSize(%p) is %s', (bytes, text) => {
  expect(formatFileSize(bytes)).toBe(text);
});
