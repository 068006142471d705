import { dateWindowMessages } from '../validation/date-window';
import { messages } from '../validation/fields';
import { rfpMessages } from './messages';
import { ALL_STATUSES } from './model';
import { floatPayloadSchema, isUnselected, parseRfpHeader, parseRfpStep2, parseWith, rfpListFilterProblems, rfpRuleMessages, UNSELECTED } from './rules';
import { header, headerInput, step2 } from './testing';

const headerErrors = (over: Record<string, unknown>) => {
  const parsed = parseRfpHeader(headerInput(over));
  return 'errors' in parsed ? parsed.errors : {};
};

describe('spec 001 §5 RFP step 1', () => {
  it('accepts a complete header and fills the defaults', () => {
    expect(parseRfpHeader(headerInput())).toEqual({ data: header });
    expect(parseRfpHeader(headerInput({ productDescription: '  ', totalLogisticsSpent: '', contactPerson: null, verticalName: undefined, sourceSystem: '' }))).toEqual({
      data: { ...header, productDescription: null, totalLogisticsSpent: null, contactPerson: null, verticalName: null, sourceSystem: 'SCM' },
    });
  });

  const required = [
    'rfpCode',
    'casshOppId',
    'oppDescription',
    'rfpValue',
    'receiveDate',
    'dueDate',
    'casshAccId',
    'customerName',
    'contactDetails',
    'customerAddress',
    'customerReceiveDate',
    'customerDueDate',
  ];
  test.each(required)('%s is required and non-empty', (field) => {
    expect(headerErrors({ [field]: '   ' })[field]).toBe(messages.required);
    expect(headerErrors({ [field]: undefined })[field]).toBe(messages.required);
  });

  test.each(['productDescription', 'totalLogisticsSpent', 'contactPerson', 'verticalName'])('%s is optional', (field) => {
    expect(headerErrors({ [field]: '' })).toEqual({});
  });

  const patternChecked: [string, string, string][] = [
    ['productDescription', '=SUM(A1)', messages.leadingCharacter],
    ['productDescription', 'x'.repeat(261), messages.tooLong],
    ['totalLogisticsSpent', '12,00,000', messages.amount],
    ['totalLogisticsSpent', '100.505', messages.amount],
    ['contactPerson', 'Meera J0shi', messages.name],
  ];
  test.each(patternChecked)('optional %s is pattern-checked when filled: %j', (field, value, message) => {
    expect(headerErrors({ [field]: value })[field]).toBe(message);
  });

  const selects: [string, string][] = [
    ['sourceState', rfpRuleMessages.sourceState],
    ['destinationState', rfpRuleMessages.destinationState],
    ['serviceType', rfpRuleMessages.serviceType],
    ['subServiceType', rfpRuleMessages.subServiceType],
  ];
  test.each(selects)('%s must not be the unselected marker', (field, message) => {
    expect(headerErrors({ [field]: UNSELECTED })[field]).toBe(message);
    expect(headerErrors({ [field]: '' })[field]).toBe(message);
    expect(headerErrors({ [field]: 'Gujarat' })[field]).toBeUndefined();
  });

  it('applies the text rule and the 260 limit to every text', () => {
    expect(headerErrors({ customerName: '@Sahyadri' }).customerName).toBe(messages.leadingCharacter);
    expect(headerErrors({ customerAddress: 'a'.repeat(261) }).customerAddress).toBe(messages.tooLong);
    expect(headerErrors({ customerAddress: 'a'.repeat(260) })).toEqual({});
  });

  it('checks amounts, dates and the RFP code', () => {
    expect(headerErrors({ rfpValue: 'twenty lakh' }).rfpValue).toBe(messages.amount);
    expect(headerErrors({ dueDate: '2026-02-30' }).dueDate).toBe(messages.date);
    expect(headerErrors({ rfpCode: 'RFP 1/2' }).rfpCode).toBe(rfpRuleMessages.rfpCode);
  });

  it('knows the unselected marker in any case', () => {
    expect(isUnselected('select')).toBe(true);
    expect(isUnselected(' ')).toBe(true);
    expect(isUnselected('Kerala')).toBe(false);
  });
});

describe('spec 001 §5 RFP step 2: type and vehicle positive, property lists non-empty', () => {
  const errors = (over: Record<string, unknown>) => {
    const parsed = parseRfpStep2({ ...step2, ...over });
    return 'errors' in parsed ? parsed.errors : {};
  };

  test.each([0, -1, 1.5, 'abc', null])('vehicle hire type %j is refused', (value) => {
    expect(errors({ vehicleHireType: value }).vehicleHireType).toBe(rfpRuleMessages.vehicleHireType);
  });
  test.each([0, -3])('type id %j is refused', (value) => {
    expect(errors({ typeId: value }).typeId).toBe(rfpRuleMessages.rfpType);
  });

  it('reads ids sent as digit strings, and knows only the three RFP types', () => {
    expect(parseRfpStep2({ ...step2, vehicleHireType: '3', typeId: '2' })).toEqual({ data: { ...step2, vehicleHireType: 3, typeId: 2 } });
    expect(errors({ rfpType: 'spot' }).rfpType).toBe(rfpRuleMessages.rfpType);
  });

  it('needs MLL and BA properties; dynamic info may be empty; repeats are dropped', () => {
    expect(errors({ mllProperties: [] }).mllProperties).toBe(rfpRuleMessages.mllProperties);
    expect(errors({ baProperties: [] }).baProperties).toBe(rfpRuleMessages.baProperties);
    expect(parseRfpStep2({ ...step2, dynamicInfo: undefined, baProperties: ['ratePerTrip', 'ratePerTrip'] })).toEqual({
      data: { ...step2, dynamicInfo: [], baProperties: ['ratePerTrip'] },
    });
    expect(errors({ mllProperties: ['from city'] })['mllProperties.0']).toBe(rfpRuleMessages.propertyKey);
  });
});

describe('the float payload', () => {
  it('drops repeated BAs and defaults the comment', () => {
    expect(parseWith(floatPayloadSchema, { baIds: ['ba-1', 'ba-1', 'ba-2'], floatToAll: false, rfpType: 'standard' })).toEqual({
      data: { baIds: ['ba-1', 'ba-2'], comments: '', floatToAll: false, rfpType: 'standard' },
    });
  });

  it('holds comments to the text rule', () => {
    expect(parseWith(floatPayloadSchema, { baIds: ['ba-1'], comments: '-1+1', rfpType: 'standard' })).toEqual({ errors: { comments: messages.leadingCharacter } });
    expect(rfpMessages.addNewBa).toBe('Please Add New BA to float RFP');
  });
});

describe('the RFP dashboard filter', () => {
  const today = '2026-03-31';
  it('takes the spec’s filters, "all" for every status, and dates inside the 61-day window', () => {
    expect(rfpListFilterProblems({ rfpCode: 'RFP-2026', casshId: 'OPP', status: 'floated', from: '2026-02-01', to: '2026-03-31' }, today)).toBeNull();
    expect(rfpListFilterProblems({ status: ALL_STATUSES }, today)).toBeNull();
    expect(rfpListFilterProblems({}, today)).toBeNull();
  });

  it('refuses an unknown status, formula text, a reversed range and dates older than the window', () => {
    expect(rfpListFilterProblems({ status: 'won' }, today)).toEqual({ status: 'Please choose a status from the list' });
    expect(rfpListFilterProblems({ rfpCode: '=cmd' }, today)).toEqual({ rfpCode: messages.leadingCharacter });
    expect(rfpListFilterProblems({ from: '2026-03-10', to: '2026-03-01' }, today)).toEqual({ to: dateWindowMessages.startAfterEnd });
    expect(rfpListFilterProblems({ from: '2026-01-01' }, today)).toEqual({ from: dateWindowMessages.tooOld });
  });
});
