import DescriptionIcon from '@mui/icons-material/Description';
import GridOnIcon from '@mui/icons-material/GridOn';
import ImageIcon from '@mui/icons-material/Image';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFile';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import type { SvgIconProps } from '@mui/material/SvgIcon';

/**
 * What kind of document a stored file is, for its icon and for what a browser can do with it (spec 001 §2
 * "PO Annexures": a file-type icon per card; xlsx downloads, other types preview). Shared by the console's
 * annexure list and the portal's cards.
 */
export type FileKind = 'pdf' | 'image' | 'excel' | 'word' | 'other';

const BY_EXTENSION: Record<string, FileKind> = {
  pdf: 'pdf',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  bmp: 'image',
  webp: 'image',
  xlsx: 'excel',
  xls: 'excel',
  csv: 'excel',
  doc: 'word',
  docx: 'word',
};

/**
 * The kind from the MIME type the server recorded (it checked the file's magic bytes), else from the name's
 * extension; anything else is 'other'.
 */
export function fileKindOf(file: { fileName?: string | null; fileType?: string | null }): FileKind {
  const type = (file.fileType ?? '').toLowerCase();
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('image/')) return 'image';
  if (type.includes('spreadsheet') || type.includes('ms-excel') || type === 'text/csv') return 'excel';
  if (type.includes('wordprocessing') || type === 'application/msword') return 'word';
  const extension = /\.([a-z0-9]+)$/i.exec(file.fileName ?? '')?.[1]?.toLowerCase() ?? '';
  return BY_EXTENSION[extension] ?? 'other';
}

/** Previewable in the browser itself (an iframe or an img); everything else is downloaded. */
export const isPreviewable = (kind: FileKind): kind is 'pdf' | 'image' => kind === 'pdf' || kind === 'image';

export const FILE_KIND_LABELS: Record<FileKind, string> = {
  pdf: 'PDF document',
  image: 'Image',
  excel: 'Excel workbook',
  word: 'Word document',
  other: 'File',
};

const ICONS = {
  pdf: { Icon: PictureAsPdfIcon, color: '#c62828' },
  image: { Icon: ImageIcon, color: '#6a1b9a' },
  excel: { Icon: GridOnIcon, color: '#1b5e20' },
  word: { Icon: DescriptionIcon, color: '#1565c0' },
  other: { Icon: InsertDriveFileIcon, color: '#546e7a' },
} as const;

/** The file's icon, named for screen readers ("PDF document") and marked with its kind for tests. */
export function FileTypeIcon({ kind, sx, ...props }: { kind: FileKind } & Omit<SvgIconProps, 'children'>) {
  const { Icon, color } = ICONS[kind];
  return (
    <Icon
      titleAccess={FILE_KIND_LABELS[kind]}
      data-file-kind={kind}
      {...props}
      sx={[{ color }, ...(Array.isArray(sx) ? sx : [sx])]}
    />
  );
}

const SIZE_UNITS = ['bytes', 'KB', 'MB', 'GB'] as const;

/** 512 bytes, 820 KB, 1.4 MB (binary multiples, as file managers show them). */
export function formatFileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return 'NA';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits).replace(/\.0$/, '')} ${SIZE_UNITS[unit]}`;
}
