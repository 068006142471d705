/**
 * The upload rules of spec 000 §5 ("Files") and 001 §5: which extensions each kind of upload takes, the
 * spec's message when a file is not one of them, and, per extension, the MIME type we record and the
 * magic-byte types (as `file-type` names them) its content must show. Pure data: the API checks uploads
 * against it (api/src/http/uploads.ts) and the front ends build their `accept` lists from it.
 */
export type FileKind = 'excel' | 'document' | 'imageOrPdf' | 'annexure' | 'invoiceAttachment';

export type FileExtension = 'jpg' | 'jpeg' | 'png' | 'gif' | 'pdf' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'csv' | 'bmp' | 'tiff';

export const uploadMessages = {
  noFile: 'Please choose a file',
  empty: 'The chosen file is empty. Please choose another file',
  oneFile: 'Please choose one file only',
  notMultipart: 'Please choose a file',
  incomplete: 'The upload did not complete. Please try again',
  tooLarge: (maxBytes: number) => `The file is too large. The maximum size is ${megabytes(maxBytes)} MB.`,
} as const;

/** "25" for 25 MiB, "0.5" for 512 KiB: the cap as people read it. */
export const megabytes = (bytes: number): string => String(Math.round((bytes / (1024 * 1024)) * 10) / 10);

const IMAGES: readonly FileExtension[] = ['jpg', 'jpeg', 'png', 'gif'];
const DOCUMENTS: readonly FileExtension[] = [...IMAGES, 'pdf', 'doc', 'docx'];

export const FILE_KINDS: Record<FileKind, { extensions: readonly FileExtension[]; message: string }> = {
  excel: { extensions: ['xlsx', 'xls', 'csv'], message: 'Invalid file type selected. Please select excel file only.' },
  document: {
    extensions: DOCUMENTS,
    message: 'Invalid file type selected. Please select image/pdf/doc/docx file only.',
  },
  imageOrPdf: { extensions: [...IMAGES, 'pdf'], message: 'Invalid file type selected. Please select image/pdf file only.' },
  // PO annexures are policies (pdf, doc), scans (images) and rate sheets (xlsx): the spec shows xlsx ones.
  annexure: {
    extensions: [...DOCUMENTS, 'xlsx'],
    message: 'Invalid file type selected. Please select image/pdf/doc/docx/xlsx file only.',
  },
  // Bill-Hub invoice attachments (issue 11 contract): scans, PDFs, office files and rate sheets.
  invoiceAttachment: {
    extensions: ['jpg', 'jpeg', 'png', 'bmp', 'tiff', 'pdf', 'xls', 'xlsx', 'csv', 'doc', 'docx'],
    message: 'Invalid file type selected.',
  },
};

/**
 * `magic`: what `file-type` must find in the first bytes. 'cfb' is the OLE compound file of .doc and .xls
 * (it cannot tell them apart). Office Open XML files are zips whose identifying part may start beyond the
 * bytes we look at; a plain 'zip' is accepted for them, a zip identified as another format is not. null:
 * no magic bytes (csv), so the content must look like text instead.
 */
export const EXTENSIONS: Record<FileExtension, { mime: string; magic: readonly string[] | null }> = {
  jpg: { mime: 'image/jpeg', magic: ['jpg'] },
  jpeg: { mime: 'image/jpeg', magic: ['jpg'] },
  png: { mime: 'image/png', magic: ['png'] },
  gif: { mime: 'image/gif', magic: ['gif'] },
  pdf: { mime: 'application/pdf', magic: ['pdf'] },
  doc: { mime: 'application/msword', magic: ['cfb'] },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', magic: ['docx', 'zip'] },
  xls: { mime: 'application/vnd.ms-excel', magic: ['cfb'] },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', magic: ['xlsx', 'zip'] },
  csv: { mime: 'text/csv', magic: null },
  bmp: { mime: 'image/bmp', magic: ['bmp'] },
  tiff: { mime: 'image/tiff', magic: ['tif'] },
};

/** The extensions of one or more kinds, and the message of the first (what the file input accepts). */
export function kindRule(kinds: FileKind | readonly FileKind[]): { extensions: readonly FileExtension[]; message: string } {
  const list = (Array.isArray(kinds) ? kinds : [kinds]) as readonly FileKind[];
  const extensions = [...new Set(list.flatMap((k) => FILE_KINDS[k].extensions))];
  return { extensions, message: FILE_KINDS[list[0] ?? 'document'].message };
}

/** `.xlsx,.xls,.csv` for an `<input type="file" accept>`. */
export const acceptOf = (kinds: FileKind | readonly FileKind[]): string =>
  kindRule(kinds)
    .extensions.map((e) => `.${e}`)
    .join(',');

/** The lower-case extension of a file name, when it is one of ours. */
export function extensionOf(name: string): FileExtension | null {
  const match = /\.([A-Za-z0-9]+)$/.exec(name);
  const ext = match?.[1]?.toLowerCase();
  return ext && ext in EXTENSIONS ? (ext as FileExtension) : null;
}
