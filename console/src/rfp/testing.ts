import { RFP_STATUS_COLOURS, type RfpStatus } from '../../../domain/src/rfp/model';
import { RFP_CODE, columns, header, step2 } from '../../../domain/src/rfp/testing';
import type { ComparisonGroup, RfpComparison, RfpStaffListRow, RfpStaffView } from './types';

/** Test doubles of the RFP screens' UI tests: the API's answers in the contract's shapes (domain fixtures inside). */
export { RFP_CODE };

export function rfpListRow(over: Partial<RfpStaffListRow> = {}): RfpStaffListRow {
  const status: RfpStatus = over.status ?? 'floated';
  return {
    id: RFP_CODE,
    serialNo: 1,
    rfpCode: RFP_CODE,
    casshOppId: header.casshOppId,
    oppDescription: header.oppDescription,
    customerName: header.customerName,
    rfpType: 'standard',
    status,
    statusColour: RFP_STATUS_COLOURS[status],
    round: 1,
    receiveDate: header.receiveDate,
    dueDate: header.dueDate,
    dueAt: '2026-01-31T18:29:59.999Z',
    biddingClosedAt: null,
    createdAt: '2026-01-15T10:00:00.000Z',
    floatedAt: '2026-01-15T11:00:00.000Z',
    updatedAt: '2026-01-15T11:00:00.000Z',
    laneCount: 2,
    companyCode: '1000',
    createdBy: { userId: 'u-procurement', role: 'MLL Procurement', name: 'Priya Nair' },
    invitedCount: 2,
    responseCount: 2,
    ...over,
  };
}

export function rfpView(over: Partial<RfpStaffView> = {}): RfpStaffView {
  return {
    ...rfpListRow(over),
    header,
    steps: { 2: step2, 3: { headerData: columns }, 4: null, 5: null },
    columns,
    rateKey: columns.find((c) => c.owner === 'ba' && c.type === 'number')?.key ?? null,
    terms: null,
    wizard: { step: 3, enabled: { 2: true, 3: true, 4: true, 5: true }, restoreBaSelection: false, delayMs: 0 },
    invitations: [
      {
        baId: 'ba-1',
        companyName: 'Sharma Roadways Pvt Ltd',
        roundInvited: 1,
        invitedAt: '2026-01-15T11:00:00.000Z',
        backhaulInvited: false,
        backhaulChangedAt: null,
        lanesQuoted: 2,
      },
      {
        baId: 'ba-2',
        companyName: 'Patil Carriers',
        roundInvited: 1,
        invitedAt: '2026-01-15T11:00:00.000Z',
        backhaulInvited: true,
        backhaulChangedAt: '2026-01-16T11:00:00.000Z',
        lanesQuoted: 1,
      },
    ],
    awards: [],
    ...over,
  };
}

const group = (laneId: string, quotes: [string, string, number][]): ComparisonGroup => ({
  laneId,
  fromCity: 'Pune',
  toCity: 'Bengaluru',
  vehicleType: '32 ft MXL',
  lanes: 1,
  quotes: quotes.map(([baId, companyName, rate], i) => ({ baId, companyName, rate, lanesQuoted: 1, rank: i + 1 })),
  min: quotes.length ? Math.min(...quotes.map((q) => q[2])) : null,
  avg: quotes.length ? quotes.reduce((s, q) => s + q[2], 0) / quotes.length : null,
  max: quotes.length ? Math.max(...quotes.map((q) => q[2])) : null,
});

/** Comparison 'all': lane L0001 quoted by both BAs (Patil lowest), L0002 by Sharma only. */
export function laneComparison(): RfpComparison {
  const groups = [
    group('L0001', [
      ['ba-2', 'Patil Carriers', 41000],
      ['ba-1', 'Sharma Roadways Pvt Ltd', 45000],
    ]),
    group('L0002', [['ba-1', 'Sharma Roadways Pvt Ltd', 38000]]),
  ];
  return { rfpCode: RFP_CODE, round: 1, by: 'all', total: groups.length, groups };
}
