import { givenWhenThen, metaFor } from '../shared/testing';
import type { ReleaseCommand } from './commands';
import { releaseDecider } from './decide';
import type { ReleaseEvent } from './events';
import { classesFor, parseReleaseId, releaseMessages, releasePath, releaseTitle } from './fields';
import { messages } from '../validation/fields';

const given = givenWhenThen(releaseDecider);
const asAdmin = metaFor({ userId: 'u-admin', role: 'MLL-ADMIN', name: 'Anil Admin' });

const input = (over: Record<string, unknown> = {}) => ({
  versionReleased: '1.4.0',
  deviceType: 'web',
  featureClass: 'ba',
  releasedOn: '2026-03-05',
  newFeatures: [{ featureDesc: 'PO annexures on the home page' }],
  bugFixes: [{ featureDesc: 'City list loads for every state', releasedOn: '2026-03-04' }],
  ...over,
});

const published: ReleaseEvent = {
  type: 'ReleasePublished',
  data: {
    id: '1.4.0-web',
    versionReleased: '1.4.0',
    deviceType: 'web',
    featureClass: 'ba',
    releasedOn: '2026-03-05',
    newFeatures: [{ featureDesc: 'PO annexures on the home page', releasedOn: '2026-03-05' }],
    bugFixes: [{ featureDesc: 'City list loads for every state', releasedOn: '2026-03-04' }],
  },
};
const withdrawn: ReleaseEvent = { type: 'ReleaseWithdrawn', data: { id: '1.4.0-web', versionReleased: '1.4.0', deviceType: 'web' } };
const publish = (over: Record<string, unknown> = {}): ReleaseCommand => ({ type: 'PublishRelease', input: input(over) });
const change = (over: Record<string, unknown> = {}): ReleaseCommand => ({ type: 'ChangeRelease', id: '1.4.0-web', input: input(over) });

describe('publishing a release', () => {
  it('records the release under its version and device type; an entry without a date takes the release date', () => {
    given([]).when(publish(), asAdmin).then([published]);
  });

  it('refuses a second release of the same version for the same device (409)', () => {
    given([published]).when(publish(), asAdmin).thenError('conflict', { message: 'A release 1.4.0 for Web already exists' });
  });

  it('may publish the same version and device again once the first was withdrawn', () => {
    given([published, withdrawn]).when(publish({ featureClass: 'all' }), asAdmin).then([
      { ...published, data: { ...published.data, featureClass: 'all' } },
    ] as ReleaseEvent[]);
  });

  it.each([
    [{ versionReleased: '1.4' }, null],
    [{ versionReleased: '10.0.12.3' }, null],
    [{ versionReleased: 'v1.4.0' }, { versionReleased: releaseMessages.version }],
    [{ versionReleased: '1..4' }, { versionReleased: releaseMessages.version }],
    [{ versionReleased: '1.2.3.4.5.6.7.8.9.10.1' }, { versionReleased: releaseMessages.versionTooLong }],
    [{ versionReleased: '' }, { versionReleased: messages.required }],
    [{ deviceType: 'windows' }, { deviceType: releaseMessages.deviceType }],
    [{ featureClass: 'staff' }, { featureClass: releaseMessages.featureClass }],
    [{ releasedOn: '2026-02-30' }, { releasedOn: releaseMessages.date }],
    [{ releasedOn: '05-03-2026' }, { releasedOn: releaseMessages.date }],
    [{ newFeatures: [{ featureDesc: '   ' }] }, { 'newFeatures.0.featureDesc': releaseMessages.description }],
    [{ newFeatures: [{ featureDesc: '=HYPERLINK("x")' }] }, { 'newFeatures.0.featureDesc': messages.leadingCharacter }],
    [{ bugFixes: [{ featureDesc: 'x'.repeat(261) }] }, { 'bugFixes.0.featureDesc': messages.tooLong }],
    [{ bugFixes: [{ featureDesc: 'Fine', releasedOn: 'yesterday' }] }, { 'bugFixes.0.releasedOn': releaseMessages.date }],
    [{ newFeatures: [], bugFixes: [] }, { newFeatures: releaseMessages.nothingListed }],
  ])('checks %j', (over, errors) => {
    const outcome = given([]).when(publish(over), asAdmin);
    if (errors === null) expect(Array.isArray(outcome.result)).toBe(true);
    else outcome.thenError('validation', { errors });
  });

  it('accepts a release with only bug fixes, or only new features', () => {
    expect(Array.isArray(given([]).when(publish({ newFeatures: [] }), asAdmin).result)).toBe(true);
    expect(Array.isArray(given([]).when(publish({ bugFixes: undefined }), asAdmin).result)).toBe(true);
  });
});

describe('editing a release', () => {
  it('records only the changed fields, before and after', () => {
    given([published])
      .when(change({ featureClass: 'all', bugFixes: [{ featureDesc: 'City list loads for every state', releasedOn: '2026-03-04' }] }), asAdmin)
      .then([{ type: 'ReleaseChanged', data: { id: '1.4.0-web', before: { featureClass: 'ba' }, after: { featureClass: 'all' } } }]);
  });

  it('records nothing when nothing changed', () => {
    given([published]).when(change(), asAdmin).thenNothing();
  });

  it('compares entries by content, not by the key order the store gives them back in', () => {
    const reordered = {
      ...published,
      data: { ...published.data, newFeatures: [{ releasedOn: '2026-03-05', featureDesc: 'PO annexures on the home page' }] },
    } as ReleaseEvent;
    given([reordered]).when(change(), asAdmin).thenNothing();
  });

  it('validates the edited content like a new release', () => {
    given([published]).when(change({ newFeatures: [], bugFixes: [] }), asAdmin).thenError('validation', {
      errors: { newFeatures: releaseMessages.nothingListed },
    });
  });

  it('cannot edit a release that does not exist or was withdrawn (404)', () => {
    given([]).when(change(), asAdmin).thenError('not_found', { message: 'Release not found' });
    given([published, withdrawn]).when(change(), asAdmin).thenError('not_found', { message: 'Release not found' });
  });
});

describe('withdrawing a release', () => {
  it('takes a published release off the lists, once', () => {
    given([published]).when({ type: 'WithdrawRelease', id: '1.4.0-web' }, asAdmin).then([withdrawn]);
    given([published, withdrawn]).when({ type: 'WithdrawRelease', id: '1.4.0-web' }, asAdmin).thenError('not_found');
  });
});

describe('release names', () => {
  it('titles, paths and ids as the header and the public page use them', () => {
    expect(releaseTitle({ versionReleased: '1.4.0', deviceType: 'ios' })).toBe('BA Portal Release 1.4.0 - iOS');
    expect(releasePath({ versionReleased: '1.4.0', deviceType: 'android' })).toBe('/newFeaturesList/1.4.0/android');
    expect(parseReleaseId('1.4.0-android')).toEqual({ versionReleased: '1.4.0', deviceType: 'android' });
    expect(parseReleaseId('1.4.0-windows')).toBeNull();
    expect(parseReleaseId('../x')).toBeNull();
  });

  it('a BA is shown releases for BAs and for all; everyone else those for all', () => {
    expect(classesFor('ba')).toEqual(['ba', 'all']);
    expect(classesFor('all')).toEqual(['all']);
  });
});
