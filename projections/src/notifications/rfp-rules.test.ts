import type { RfpEvent } from '../../../domain/src/rfp/events';
import { draftReady, mllAdmin, procurement, RFP_CODE, rfpEvents } from '../../../domain/src/rfp/testing';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { renderTemplate } from '../../../platform/src/notifications/templates';
import { rfpNoticeEmail } from './rfp-notifications';
import { AWARD_LANES_SHOWN, evolveRfpSubject, RFP_NOTIFICATION_KINDS, isRfpNotificationKind, newRfpSubject, rfpNotifications, type RfpSubject } from './rfp-rules';
import type { NotificationRequest } from './rules';

let position = 0;

const stored = (event: RfpEvent): StoredEvent => {
  position += 1;
  return {
    eventId: `e${position}`,
    type: event.type,
    data: event.data,
    metadata: {
      actor: { userId: 'u-procurement', role: 'MLL Procurement' },
      companyCode: '1000',
      correlationId: 'c',
      causationId: null,
      workflowId: null,
      requestId: null,
      at: '2026-01-15T10:00:00.000Z',
    },
    streamId: `rfp-${RFP_CODE}`,
    version: position,
    globalPosition: position,
    recordedAt: '2026-01-15T10:00:00.000Z',
    prevHash: '',
    hash: '',
  };
};

/** Folds the events like the projection does and returns every notification asked for. */
function run(events: readonly RfpEvent[], start: RfpSubject = newRfpSubject(RFP_CODE, '1000')): NotificationRequest[] {
  const out: NotificationRequest[] = [];
  let s = start;
  for (const event of events) {
    out.push(...rfpNotifications(stored(event), event, s));
    s = evolveRfpSubject(s, event);
  }
  return out;
}

const floated = (baIds: string[], over: Partial<Extract<RfpEvent, { type: 'RfpFloated' }>['data']> = {}): RfpEvent => ({
  type: 'RfpFloated',
  data: { ...rfpEvents.floated.data, baIds, ...over },
});
const awarded = (lanes: Record<string, { baId: string; sharePercent: number }[]>): RfpEvent => ({
  type: 'RfpAwarded',
  data: {
    rfpCode: RFP_CODE,
    round: 1,
    lanes: Object.fromEntries(Object.entries(lanes).map(([laneId, shares]) => [laneId, shares.map((s) => ({ ...s, rates: { ratePerTrip: '1' } }))])),
    awardedBy: mllAdmin,
  },
});

const BA_ROLES = ['BA Admin', 'BA User'];
const LINK = `/rfp/BA/view/${RFP_CODE}/standard`;

describe('RFP notification rules (issue 10)', () => {
  test('a float tells each BA it invites, and only them, with the customer, the due date in IST and the link', () => {
    const notes = run([...draftReady, floated(['ba-1', 'ba-2'], { comments: '  Diesel at actuals  ' })]);
    expect(notes.map((n) => [n.kind, n.audience.baId, n.baId, n.audience.roles, n.companyCode])).toEqual([
      ['rfp.floated', 'ba-1', 'ba-1', BA_ROLES, '1000'],
      ['rfp.floated', 'ba-2', 'ba-2', BA_ROLES, '1000'],
    ]);
    // Due 2026-01-31T18:29:59.999Z: the end of 31 January in India.
    expect(notes[0]).toMatchObject({
      title: `New RFP ${RFP_CODE}`,
      body: `New RFP ${RFP_CODE} from Sahyadri Foods Pvt Ltd: please quote by 31-Jan-2026. Note from MLL: Diesel at actuals`,
      link: LINK,
    });
    // Addressed to BA users only: no staff company-code audience, nobody else's admins.
    expect(notes.every((n) => n.audience.companyCode === null && n.audience.adminsOfUser === null)).toBe(true);
  });

  test('a later float tells only the BAs it adds; a re-send to all that adds none tells nobody', () => {
    const notes = run([...draftReady, floated(['ba-1']), floated(['ba-3']), floated([], { floatToAll: true })]);
    expect(notes.map((n) => n.audience.baId)).toEqual(['ba-1', 'ba-3']);
  });

  test('the link and text follow the RFP type and the customer of step 1 as saved last', () => {
    const renamed: RfpEvent = {
      type: 'RfpStepSaved',
      data: { rfpCode: RFP_CODE, step: 1, data: { ...rfpEvents.created.data.header, customerName: 'Konkan Agro' }, clearedSteps: [], clearsLanes: false },
    };
    const [note] = run([...draftReady, renamed, floated(['ba-1'], { rfpType: 'non-standard' })]);
    expect(note?.link).toBe(`/rfp/BA/view/${RFP_CODE}/non-standard`);
    expect(note?.body).toContain('from Konkan Agro:');
  });

  test('an award tells each invited BA only its own lanes and shares, and the others that nothing was awarded to them', () => {
    const notes = run([
      ...draftReady,
      floated(['ba-1', 'ba-2']),
      floated(['ba-3']),
      awarded({
        L0001: [
          { baId: 'ba-1', sharePercent: 60 },
          { baId: 'ba-2', sharePercent: 40 },
        ],
        L0002: [{ baId: 'ba-2', sharePercent: 100 }],
      }),
    ]).filter((n) => n.kind !== 'rfp.floated');
    expect(notes.map((n) => [n.kind, n.audience.baId, n.title, n.body])).toEqual([
      ['rfp.awarded', 'ba-1', `RFP ${RFP_CODE} awarded to you`, `RFP ${RFP_CODE} from Sahyadri Foods Pvt Ltd: you were awarded 1 lane: L0001 (60%).`],
      ['rfp.awarded', 'ba-2', `RFP ${RFP_CODE} awarded to you`, `RFP ${RFP_CODE} from Sahyadri Foods Pvt Ltd: you were awarded 2 lanes: L0001 (40%), L0002 (100%).`],
      [
        'rfp.not-awarded',
        'ba-3',
        `RFP ${RFP_CODE} decided`,
        `RFP ${RFP_CODE} from Sahyadri Foods Pvt Ltd has been awarded; no lanes were awarded to you this time. Thank you for your quote.`,
      ],
    ]);
    // A BA never hears of another: no notice names another BA or another BA's share.
    for (const note of notes) {
      for (const other of ['ba-1', 'ba-2', 'ba-3'].filter((b) => b !== note.audience.baId)) {
        expect(`${note.title} ${note.body} ${note.link}`).not.toContain(other);
      }
    }
    expect(notes[0]?.body).not.toContain('40%');
    expect(notes[1]?.body).not.toContain('60%');
  });

  test('an award of many lanes names the first few and counts the rest', () => {
    const lanes = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`L${String(i + 1).padStart(4, '0')}`, [{ baId: 'ba-1', sharePercent: 100 }]]));
    const [note] = run([...draftReady, floated(['ba-1']), awarded(lanes)]).filter((n) => n.kind === 'rfp.awarded');
    expect(note?.body).toContain('you were awarded 25 lanes: L0001 (100%),');
    expect(note?.body).toContain(`L${String(AWARD_LANES_SHOWN).padStart(4, '0')} (100%) and ${25 - AWARD_LANES_SHOWN} more.`);
    expect(note?.body).not.toContain(`L${String(AWARD_LANES_SHOWN + 1).padStart(4, '0')}`);
  });

  test('a close and a reopen tell every invited BA; the reopen gives the round and its due date', () => {
    const notes = run([...draftReady, floated(['ba-1', 'ba-2']), rfpEvents.closed, rfpEvents.reopened]).filter((n) => n.kind !== 'rfp.floated');
    expect(notes.map((n) => [n.kind, n.audience.baId])).toEqual([
      ['rfp.closed', 'ba-1'],
      ['rfp.closed', 'ba-2'],
      ['rfp.reopened', 'ba-1'],
      ['rfp.reopened', 'ba-2'],
    ]);
    expect(notes[0]?.body).toBe(`RFP ${RFP_CODE} from Sahyadri Foods Pvt Ltd is closed.`);
    // ROUND_2_DUE_AT 2026-02-20T12:30Z is 20 February in India.
    expect(notes[2]?.body).toBe(`RFP ${RFP_CODE} from Sahyadri Foods Pvt Ltd is open again for round 2: please review your quote by 20-Feb-2026.`);
    expect(notes[2]?.link).toBe(LINK);
  });

  test('a backhaul invitation tells that BA; withdrawing it tells nobody', () => {
    const invite = (isInvited: boolean): RfpEvent => ({ type: 'BackhaulInvitationChanged', data: { rfpCode: RFP_CODE, baId: 'ba-2', isInvited, by: procurement } });
    const notes = run([...draftReady, floated(['ba-1', 'ba-2']), invite(true), invite(false)]).filter((n) => n.kind !== 'rfp.floated');
    expect(notes.map((n) => [n.kind, n.audience.baId, n.body])).toEqual([
      ['rfp.backhaul-invited', 'ba-2', `You are invited to offer backhaul for RFP ${RFP_CODE} from Sahyadri Foods Pvt Ltd.`],
    ]);
  });

  test('drafting, quoting, closing bidding and terms tell nobody', () => {
    const terms: RfpEvent = { type: 'RfpTermsUploaded', data: { rfpCode: RFP_CODE, file: { name: 't.pdf', size: 1, type: 'application/pdf', sha256: 'b' }, uploadedBy: procurement } };
    expect(run([...draftReady, rfpEvents.quoted('ba-1'), rfpEvents.biddingClosed, terms])).toEqual([]);
  });

  test('the subject remembers each invited BA once, in order of invitation', () => {
    const s = [...draftReady, floated(['ba-2', 'ba-1']), floated(['ba-1', 'ba-3'])].reduce(evolveRfpSubject, newRfpSubject(RFP_CODE, '1000'));
    expect(s.invitedBaIds).toEqual(['ba-2', 'ba-1', 'ba-3']);
    expect(s.customerName).toBe('Sahyadri Foods Pvt Ltd');
  });

  test('every RFP kind is e-mailed with the notice’s own words; other kinds are not RFP notices', () => {
    expect(isRfpNotificationKind('rfp.floated')).toBe(true);
    expect(isRfpNotificationKind('onboarding.verified')).toBe(false);
    // The fan-out returns the words of the rows to e-mail by this prefix.
    expect(RFP_NOTIFICATION_KINDS.every((kind) => kind.startsWith('rfp.'))).toBe(true);
    const [note] = run([...draftReady, floated(['ba-1'])]);
    const row = { id: 'e1:u1', user_id: 'u1', kind: note!.kind, title: note!.title, body: note!.body, link: note!.link };
    const message = rfpNoticeEmail(row, 'ba@demo.test', 'https://ba.example.in/');
    expect(message).toEqual({
      channel: 'email',
      to: 'ba@demo.test',
      template: 'rfp-notice',
      params: { title: note!.title, body: note!.body, link: `https://ba.example.in/rfp/BA/view/${RFP_CODE}/standard` },
    });
    const mail = renderTemplate('rfp-notice', message!.params);
    expect(mail.subject).toBe(`BA Portal: New RFP ${RFP_CODE}`);
    expect(mail.text).toContain(note!.body);
    // The link is the portal's RFP view (portal/src/rfp/paths.ts rfpBaViewPath) on the configured public URL.
    expect(mail.text).toContain(`Open the RFP in BA Portal: https://ba.example.in/rfp/BA/view/${RFP_CODE}/standard`);
    // Without a public URL the path alone; a row without words is not e-mailed.
    expect(rfpNoticeEmail(row, 'ba@demo.test', null)?.params['link']).toBe(`/rfp/BA/view/${RFP_CODE}/standard`);
    expect(rfpNoticeEmail({ ...row, body: null }, 'ba@demo.test', 'https://ba.example.in')).toBeNull();
  });
});
