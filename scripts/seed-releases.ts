import { handleCommand } from '../domain/src/event-store/handle-command';
import { ConcurrencyError, type EventStore } from '../domain/src/event-store/port';
import { releaseDecider } from '../domain/src/releases/decide';
import { releaseIdOf, releaseStreamId, type DeviceType, type FeatureClass } from '../domain/src/releases/fields';
import { DomainError } from '../domain/src/shared/errors';
import type { Actor } from '../domain/src/shared/events';

/**
 * Demo release notes, so What's New has entries on a fresh start. Written by the demo seed (scripts/seed.ts)
 * through the release decider, as an admin's publish would be; only into the empty store the seed claims.
 */
export type DemoRelease = {
  versionReleased: string;
  deviceType: DeviceType;
  featureClass: FeatureClass;
  releasedOn: string;
  newFeatures: { featureDesc: string }[];
  bugFixes: { featureDesc: string }[];
};

export const DEMO_RELEASES: readonly DemoRelease[] = [
  {
    versionReleased: '1.0.0',
    deviceType: 'web',
    featureClass: 'all',
    releasedOn: '2026-07-06',
    newFeatures: [
      { featureDesc: 'Self-registration with one code sent by SMS and one by e-mail' },
      { featureDesc: 'Company details form with draft saving and submission for verification' },
      { featureDesc: 'Two-stage verification by MLL Procurement and MLL Commercial, with remarks' },
    ],
    bugFixes: [],
  },
  {
    versionReleased: '1.1.0',
    deviceType: 'web',
    featureClass: 'ba',
    releasedOn: '2026-09-14',
    newFeatures: [
      { featureDesc: 'BA Admins add their colleagues as BA users and choose their applications' },
      { featureDesc: 'One Bill-Hub user per GST state of the business associate' },
      { featureDesc: 'Change of the registered e-mail id or mobile number through a verified link' },
    ],
    bugFixes: [
      { featureDesc: 'The OTP resend countdown no longer stops before it reaches zero' },
      { featureDesc: 'Pincode accepts exactly six digits' },
    ],
  },
  {
    versionReleased: '1.2.0',
    deviceType: 'web',
    featureClass: 'all',
    releasedOn: '2026-11-16',
    newFeatures: [
      { featureDesc: 'All states and union territories with their GST state codes, and the cities we serve' },
      { featureDesc: "What's New: the release notes of every portal release" },
      { featureDesc: 'Help menu with the user manual and the support mailbox' },
    ],
    bugFixes: [{ featureDesc: 'The city list loads for every state' }],
  },
];

export const demoReleaseId = (r: DemoRelease): string => releaseIdOf(r.versionReleased, r.deviceType);

/**
 * Publishes each demo release whose stream is new. The command id is fixed per release, so a resumed seed
 * finds its own event and writes nothing again, even where a person has since edited or withdrawn it.
 */
export async function seedReleases(store: EventStore, actor: Actor): Promise<number> {
  let published = 0;
  for (const release of DEMO_RELEASES) {
    const id = demoReleaseId(release);
    try {
      const publish = { type: 'PublishRelease', input: release } as const;
      const result = await handleCommand(store, releaseStreamId(id), releaseDecider, publish, {
        commandId: `seed:release:${id}`,
        actor,
        at: `${release.releasedOn}T06:30:00.000Z`,
        companyCode: null,
        correlationId: `seed:release:${id}`,
        causationId: null,
        workflowId: null,
        requestId: null,
      });
      if (!result.replayed) published += 1;
    } catch (e) {
      // Someone published this version first (an admin, a second seeder): theirs stands.
      if (e instanceof ConcurrencyError || (e instanceof DomainError && e.code === 'conflict')) continue;
      throw e;
    }
  }
  return published;
}
