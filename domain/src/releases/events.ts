import type { DomainEvent } from '../shared/events';
import type { DeviceType, FeatureClass, ReleaseEntry } from './fields';

/** Event names are wire contracts: add new ones, never rename. Stream: `release-<id>` (releaseStreamId). */
export type ReleasePublished = DomainEvent<
  'ReleasePublished',
  {
    id: string;
    versionReleased: string;
    deviceType: DeviceType;
    featureClass: FeatureClass;
    /** YYYY-MM-DD: a calendar date, shown as DD-MMM-YYYY (spec 000 §2). */
    releasedOn: string;
    newFeatures: ReleaseEntry[];
    bugFixes: ReleaseEntry[];
  }
>;

/** The editable fields of a release. */
export type ReleaseContentFields = {
  featureClass: FeatureClass;
  releasedOn: string;
  newFeatures: ReleaseEntry[];
  bugFixes: ReleaseEntry[];
};

/** An edit: the changed fields only, before and after, so an auditor sees what changed. */
export type ReleaseChanged = DomainEvent<
  'ReleaseChanged',
  { id: string; before: Partial<ReleaseContentFields>; after: Partial<ReleaseContentFields> }
>;

/** Taken off every list and its page; the same version and device type may be published again later. */
export type ReleaseWithdrawn = DomainEvent<
  'ReleaseWithdrawn',
  { id: string; versionReleased: string; deviceType: DeviceType }
>;

export type ReleaseEvent = ReleasePublished | ReleaseChanged | ReleaseWithdrawn;
export const RELEASE_EVENT_TYPES = [
  'ReleasePublished',
  'ReleaseChanged',
  'ReleaseWithdrawn',
] as const satisfies readonly ReleaseEvent['type'][];
