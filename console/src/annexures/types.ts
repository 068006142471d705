/**
 * One row of GET /api/annexures: {id, title, fileName, fileType (the MIME type the API recorded after checking
 * the magic bytes), size, status, uploadedAt, updatedAt}. Type-only: erased from the bundle.
 */
export type { AnnexureRow } from '../../../projections/src/annexures/annexures.queries';
