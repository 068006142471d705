/**
 * A reference-data row: the item's stable id beside its values, exactly the fields of the master's definition
 * (domain/src/masters/definitions.ts). Ids never change once shipped: events and other masters store them.
 */
export type ReferenceRow<Values extends Record<string, unknown> = Record<string, unknown>> = { id: number | string } & Values;

/** One master's rows, in creation order (a row may refer only to masters listed before it). */
export type ReferenceMaster = { resource: string; rows: readonly ReferenceRow[] };
