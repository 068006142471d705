import type { EmbeddedPostgres } from '../platform/src/db/embedded-postgres';

/** Prints one figure of the bench table (bench/run.ts `row`): its value, target, same-run baseline and a note. */
export type Row = (figure: string, value: string, target: string, baseline?: string, note?: string) => void;

/** What bench/run.ts hands a group that starts its own api: the embedded server, Temporal and the signing keys. */
export type ServerGroupOptions = {
  server: EmbeddedPostgres;
  temporalAddress: string;
  keyDir: string;
  quick: boolean;
  row: Row;
};

/** A server group that also writes files (workbooks, uploads) into the run's scratch directory. */
export type FileGroupOptions = ServerGroupOptions & { work: string };
