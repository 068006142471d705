import { z } from 'zod';
import { fieldErrors, messages, safeText } from '../validation/fields';

/**
 * What a release entry holds (spec 000 §3 "Release entry": versionReleased, featureClass, deviceType,
 * newFeatures and bugFixes with featureDesc and releasedOn), with the rules the console form and the API
 * share. The spec names the fields only; the limits below are ours (see ARCHITECTURE.md).
 */
export const DEVICE_TYPES = ['web', 'android', 'ios'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];
export const DEVICE_TYPE_LABELS: Record<DeviceType, string> = { web: 'Web', android: 'Android', ios: 'iOS' };

/**
 * Who a release is meant for: `ba` = business associates (the portal), `all` = every user, staff included.
 * A BA's What's New lists both; the console's lists `all`.
 */
export const FEATURE_CLASSES = ['ba', 'all'] as const;
export type FeatureClass = (typeof FEATURE_CLASSES)[number];
export const FEATURE_CLASS_LABELS: Record<FeatureClass, string> = { ba: 'BA users', all: 'All users' };

/** The classes of release a user of `audience` is shown: a BA sees `ba` and `all`, everyone sees `all`. */
export const classesFor = (audience: FeatureClass): FeatureClass[] => (audience === 'ba' ? ['ba', 'all'] : ['all']);

export const MAX_VERSION_LENGTH = 20;
/** Entries per list: a release note is read in a menu and on one page, not a changelog dump. */
export const MAX_ENTRIES = 50;

export const releaseMessages = {
  version: 'Version must be numbers separated by dots, e.g. 1.4.0',
  versionTooLong: `Version may have at most ${MAX_VERSION_LENGTH} characters`,
  deviceType: 'Please select a device type: Web, Android or iOS',
  featureClass: 'Please select who the release is for: BA users or all users',
  date: 'Please enter a valid date (YYYY-MM-DD)',
  description: 'Please describe the feature or fix',
  nothingListed: 'Please add at least one new feature or bug fix',
  tooMany: `At most ${MAX_ENTRIES} entries per list`,
  notFound: 'Release not found',
  identityFixed: 'The version and device type of a release cannot be changed: withdraw it and publish a new one',
  invalid: 'Please correct the highlighted fields',
  exists: (version: string, deviceType: DeviceType) =>
    `A release ${version} for ${DEVICE_TYPE_LABELS[deviceType]} already exists`,
} as const;

export const VERSION_PATTERN = /^\d+(\.\d+)*$/;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date as YYYY-MM-DD that exists (no 2026-02-30). */
export const isCalendarDate = (v: string): boolean => {
  if (!DATE_PATTERN.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

const trim = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

export const versionSchema = z.preprocess(
  trim,
  z
    .string({ error: messages.required })
    .min(1, { error: messages.required })
    .max(MAX_VERSION_LENGTH, { error: releaseMessages.versionTooLong })
    .regex(VERSION_PATTERN, { error: releaseMessages.version }),
);
export const deviceTypeSchema = z.enum(DEVICE_TYPES, { error: releaseMessages.deviceType });
export const featureClassSchema = z.enum(FEATURE_CLASSES, { error: releaseMessages.featureClass });
export const dateSchema = z.preprocess(
  trim,
  z.string({ error: messages.required }).refine(isCalendarDate, { error: releaseMessages.date }),
);
export const featureDescSchema = z.preprocess(
  trim,
  safeText().refine((v) => v !== '', { error: releaseMessages.description }),
);

export type ReleaseEntry = { featureDesc: string; releasedOn: string };

/** One new feature or bug fix; its date defaults to the release's (filled in by `parseRelease`). */
const entrySchema = z.object({
  featureDesc: featureDescSchema,
  releasedOn: z.preprocess((v) => (v === '' || v === null ? undefined : v), dateSchema.optional()),
});
const entriesSchema = z
  .array(entrySchema, { error: releaseMessages.nothingListed })
  .max(MAX_ENTRIES, { error: releaseMessages.tooMany });

/** The editable content of a release: everything but its identity (version and device type). */
export const releaseContentSchema = z
  .object({
    featureClass: featureClassSchema,
    releasedOn: dateSchema,
    newFeatures: z.preprocess((v) => v ?? [], entriesSchema),
    bugFixes: z.preprocess((v) => v ?? [], entriesSchema),
  })
  .superRefine((v, ctx) => {
    if (v.newFeatures.length + v.bugFixes.length === 0)
      ctx.addIssue({ code: 'custom', path: ['newFeatures'], message: releaseMessages.nothingListed });
  })
  .transform((v) => ({
    featureClass: v.featureClass,
    releasedOn: v.releasedOn,
    newFeatures: v.newFeatures.map((e) => ({ featureDesc: e.featureDesc, releasedOn: e.releasedOn ?? v.releasedOn })),
    bugFixes: v.bugFixes.map((e) => ({ featureDesc: e.featureDesc, releasedOn: e.releasedOn ?? v.releasedOn })),
  }));

export const releaseIdentitySchema = z.object({ versionReleased: versionSchema, deviceType: deviceTypeSchema });

export type ReleaseContent = z.output<typeof releaseContentSchema>;
export type ReleaseInput = ReleaseContent & { versionReleased: string; deviceType: DeviceType };

/** Parses a whole release (create); `{ errors }` keyed by field path ("newFeatures.0.featureDesc") otherwise. */
export function parseRelease(input: unknown): { data: ReleaseInput } | { errors: Record<string, string> } {
  const identity = releaseIdentitySchema.safeParse(input ?? {});
  const content = releaseContentSchema.safeParse(input ?? {});
  if (identity.success && content.success) return { data: { ...identity.data, ...content.data } };
  return {
    errors: {
      ...(identity.success ? {} : fieldErrors(identity.error)),
      ...(content.success ? {} : fieldErrors(content.error)),
    },
  };
}

/** Parses the editable content only (an edit). */
export function parseReleaseContent(input: unknown): { data: ReleaseContent } | { errors: Record<string, string> } {
  const content = releaseContentSchema.safeParse(input ?? {});
  return content.success ? { data: content.data } : { errors: fieldErrors(content.error) };
}

/**
 * A release's id is its version and device type ("1.4.0-web"): one stream per pair makes the pair unique
 * without a claim table, and the public page's URL names the release by the same two values.
 */
export const releaseIdOf = (versionReleased: string, deviceType: DeviceType): string =>
  `${versionReleased}-${deviceType}`;
export const releaseStreamId = (id: string): string => `release-${id}`;

/** Splits an id back into its parts; null for anything that is not one. */
export function parseReleaseId(id: string): { versionReleased: string; deviceType: DeviceType } | null {
  const match = /^(\d+(?:\.\d+)*)-(web|android|ios)$/.exec(id);
  if (!match?.[1] || match[1].length > MAX_VERSION_LENGTH) return null;
  return { versionReleased: match[1], deviceType: match[2] as DeviceType };
}

/** "BA Portal Release 1.4.0 - Web": the What's New entry and the release page's title (spec 000 §2). */
export const releaseTitle = (r: { versionReleased: string; deviceType: DeviceType }): string =>
  `BA Portal Release ${r.versionReleased} - ${DEVICE_TYPE_LABELS[r.deviceType]}`;

/** The public page of a release (spec 000 §2: /newFeaturesList/:versionReleased/:deviceType). */
export const releasePath = (r: { versionReleased: string; deviceType: string }): string =>
  `/newFeaturesList/${encodeURIComponent(r.versionReleased)}/${encodeURIComponent(r.deviceType)}`;
