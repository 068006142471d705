import pg from 'pg';
import { loadReferenceDataWithReadModels } from '../../scripts/reference-data';

/** The reference data and its read models in the database at `url` (global setup's template). */
export async function loadReferenceDataInto(url: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  try {
    await loadReferenceDataWithReadModels(pool);
  } finally {
    await pool.end();
  }
}
