/**
 * Release commands carry raw input: the decider validates it with the shared schemas (fields.ts), so the
 * API, the seed and any importer are held to the same rules.
 */
export type PublishRelease = { type: 'PublishRelease'; input: unknown };
export type ChangeRelease = { type: 'ChangeRelease'; id: string; input: unknown };
export type WithdrawRelease = { type: 'WithdrawRelease'; id: string };

export type ReleaseCommand = PublishRelease | ChangeRelease | WithdrawRelease;
