import { fieldErrors, keepDigits, messages } from '../validation/fields';
import { PINCODE_STATE_MESSAGE } from '../validation/pincodes';
import {
  COMPANY_DETAIL_FIELDS,
  cityStateMismatch,
  legacyCityStateMismatch,
  missingForSubmit,
  parseCompanyDetails,
  pincodeStateMismatch,
  referenceErrors,
  referencesIn,
  REQUIRED_FOR_SUBMIT,
  withReferences,
  type CompanyDetails,
  type CompanyDetailsReferences,
} from './details';

/** A complete, valid registration payload as the portal form sends it (ids from the fixed catalogue). */
const completeDetails = {
  companyName: 'Acme Logistics Pvt Ltd',
  panNumber: 'AAACA1234Z',
  contactPersonName: 'Ravi Kumar',
  cinNumber: 'U74999MH2015PTC123456',
  serviceId: 1,
  stateId: 27,
  cityId: 2701,
  addressLine1: '4 Dock Road',
  addressLine2: 'Near Gate 2',
  pinCode: '400001',
  companyLandline: '022-2345678',
  contactPersonMobileNumber: '9876543210',
  ownFleet: 12,
  attachedFleet: 30,
};

const parsed = (input: unknown): CompanyDetails => {
  const result = parseCompanyDetails(input);
  if (!result.ok) throw new Error(`expected valid details, got ${JSON.stringify(fieldErrors(result.error))}`);
  return result.details;
};

const errorsFor = (input: unknown): Record<string, string> => {
  const result = parseCompanyDetails(input);
  if (result.ok) throw new Error('expected the details to be refused');
  return fieldErrors(result.error);
};

describe('parseCompanyDetails', () => {
  test('given a complete payload, when parsed, then every field is kept', () => {
    expect(parsed(completeDetails)).toEqual(completeDetails);
  });

  test('given an empty payload, when parsed, then every field of the registration payload is null', () => {
    const details = parsed({});
    expect(Object.keys(details).sort()).toEqual([...COMPANY_DETAIL_FIELDS].sort());
    expect(Object.values(details).every((v) => v === null)).toBe(true);
  });

  test.each([[''], ['   '], ['\t']])('given empty text %j, when parsed, then it is null', (empty) => {
    const blanks = { companyName: empty, addressLine2: empty, cinNumber: empty, pinCode: empty };
    const details = parsed({ ...completeDetails, ...blanks });
    expect(details).toMatchObject({ companyName: null, addressLine2: null, cinNumber: null, pinCode: null });
  });

  test('given empty selects and fleets, when parsed, then they are null', () => {
    const blanks = { serviceId: '', stateId: null, cityId: '', ownFleet: '', attachedFleet: ' ' };
    expect(parsed({ ...completeDetails, ...blanks })).toMatchObject({
      serviceId: null,
      stateId: null,
      cityId: null,
      ownFleet: null,
      attachedFleet: null,
    });
  });

  test('given a lower-case PAN and CIN, when parsed, then they are upper-cased', () => {
    const lower = { panNumber: 'aaaca1234z', cinNumber: 'u74999mh2015ptc123456' };
    const details = parsed({ ...completeDetails, ...lower });
    expect(details.panNumber).toBe('AAACA1234Z');
    expect(details.cinNumber).toBe('U74999MH2015PTC123456');
  });

  test('given ids as strings (form selects), when parsed, then they become numbers', () => {
    expect(parsed({ ...completeDetails, serviceId: '2', stateId: '29', cityId: '2901' })).toMatchObject({
      serviceId: 2,
      stateId: 29,
      cityId: 2901,
    });
  });

  test('given fleets as digit strings or numbers, when parsed, then they are integers', () => {
    expect(parsed({ ...completeDetails, ownFleet: '0', attachedFleet: ' 250 ' })).toMatchObject({
      ownFleet: 0,
      attachedFleet: 250,
    });
  });

  test.each([
    ['a leading zero', '012'],
    ['decimals', '1.5'],
    ['a decimal number', 2.5],
    ['a negative number', -3],
    ['letters', 'ten'],
    ['a negative number as the form sends it', '-5'],
    ['a decimal as the form sends it', '2.5'],
    ['a million vehicles', 1000000],
    ['one more than the bound', '100001'],
  ])('given a fleet with %s, when parsed, then it is refused with the fleet message', (_label, value) => {
    expect(messages.fleetSize).toBe('Please enter a whole number of vehicles from 0 to 100000');
    expect(errorsFor({ ...completeDetails, ownFleet: value })).toEqual({ ownFleet: messages.fleetSize });
    expect(errorsFor({ ...completeDetails, attachedFleet: value })).toEqual({
      attachedFleet: messages.fleetSize,
    });
  });

  test('given a fleet of exactly 100000, when parsed, then it is accepted', () => {
    expect(parsed({ ...completeDetails, ownFleet: '100000', attachedFleet: 100000 })).toMatchObject({
      ownFleet: 100000,
      attachedFleet: 100000,
    });
  });

  test.each([
    ['a million vehicles', 1000000],
    ['a leading zero', '012'],
  ])('given a fleet with %s, when parsed as a replayed decision, then the rule of then applies', (_label, value) => {
    const result = parseCompanyDetails({ ...completeDetails, ownFleet: value }, { legacy: true });
    if (value === 1000000) expect(result.ok).toBe(true);
    else expect(result.ok ? {} : fieldErrors(result.error)).toEqual({ ownFleet: messages.integer });
  });

  test.each([
    ['serviceId', 'abc', 'Please select a service'],
    ['serviceId', true, 'Please select a service'],
    ['serviceId', [1], 'Please select a service'],
    ['serviceId', 0, 'Please select a service'],
    ['cityId', -2701, 'Please select a city'],
    ['stateId', '27.5', 'Please select a state'],
    ['stateId', 27.5, 'Please select a state'],
  ])('given %s %j, which is no master id at all, when parsed, then it is refused', (field, value, message) => {
    expect(errorsFor({ ...completeDetails, [field]: value })).toEqual({ [field]: message });
  });

  test('given ids of items the masters may hold, when parsed, then only their shape is checked (the references decide)', () => {
    expect(parsed({ ...completeDetails, serviceId: 6, stateId: 36, cityId: 3601 })).toMatchObject({
      serviceId: 6,
      stateId: 36,
      cityId: 3601,
    });
  });

  test.each([
    ['serviceId', 6, 'Please select a service'],
    ['stateId', 36, 'Please select a state'],
    ['cityId', 3601, 'Please select a city'],
  ])('given %s %j outside the frozen catalogue, when parsed as a replayed decision, then it is refused as it was then', (field, value, message) => {
    const result = parseCompanyDetails({ ...completeDetails, [field]: value }, { legacy: true });
    expect(result.ok ? {} : fieldErrors(result.error)).toEqual({ [field]: message });
    expect(parseCompanyDetails(completeDetails, { legacy: true }).ok).toBe(true);
  });

  test.each([
    ['panNumber', 'AAACA12345', messages.pan],
    ['cinNumber', 'X74999MH2015PTC123456', messages.cin],
    ['pinCode', '40001', messages.pinCode],
    ['contactPersonMobileNumber', '5876543210', messages.mobile],
    ['contactPersonName', 'Ravi 2', messages.name],
    ['companyName', '=HYPERLINK("x")', messages.leadingCharacter],
    ['addressLine1', '\tDock Road', messages.leadingCharacter],
    ['addressLine2', 'a'.repeat(261), messages.tooLong],
    ['companyLandline', '12345', 'Please enter a valid landline number'],
  ])('given an invalid %s, when parsed, then the field shows its message', (field, value, message) => {
    expect(errorsFor({ ...completeDetails, [field]: value })).toEqual({ [field]: message });
  });

  test('given text of exactly 260 characters, when parsed, then it is accepted', () => {
    expect(parsed({ ...completeDetails, addressLine2: 'a'.repeat(260) }).addressLine2).toHaveLength(260);
  });

  test('given several invalid fields, when parsed, then each one is reported', () => {
    const errors = errorsFor({ ...completeDetails, panNumber: 'x', pinCode: 'y', stateId: 'z' });
    expect(Object.keys(errors).sort()).toEqual(['panNumber', 'pinCode', 'stateId']);
  });

  test('given fields outside the registration payload, when parsed, then they are dropped', () => {
    expect(parsed({ ...completeDetails, status: 'verified', baId: 'other' })).toEqual(completeDetails);
  });
});

describe('cityStateMismatch', () => {
  const mumbai = { stateId: 27 };
  test('given a city of the chosen state, then nothing is wrong', () => {
    expect(cityStateMismatch(parsed(completeDetails), mumbai)).toEqual({});
  });
  test('given a city of another state, then the city is flagged', () => {
    expect(cityStateMismatch(parsed({ ...completeDetails, stateId: 29 }), mumbai)).toEqual({
      cityId: 'The city does not belong to the selected state',
    });
  });
  test('given no state or no city yet, then there is nothing to compare', () => {
    expect(cityStateMismatch(parsed({ ...completeDetails, stateId: null }), mumbai)).toEqual({});
    expect(cityStateMismatch(parsed({ ...completeDetails, cityId: null }), mumbai)).toEqual({});
  });
  test('given a replayed decision, then the frozen catalogue says where its cities lie', () => {
    expect(legacyCityStateMismatch(parsed({ ...completeDetails, stateId: 29, cityId: 2701 }))).toEqual({
      cityId: 'The city does not belong to the selected state',
    });
    expect(legacyCityStateMismatch(parsed(completeDetails))).toEqual({});
  });
});

describe('referenceErrors', () => {
  const active = (id: number, stateId?: number) => ({ id, status: 'active' as const, ...(stateId ? { stateId } : {}) });
  const resolved: CompanyDetailsReferences = { service: active(1), state: active(27), city: active(2701, 27) };

  test('given active items that fit together, then nothing is wrong', () => {
    expect(referenceErrors(parsed(completeDetails), resolved)).toEqual({});
  });

  test.each([
    ['service', 'serviceId', 'Please select a service'],
    ['state', 'stateId', 'Please select a state'],
    ['city', 'cityId', 'Please select a city'],
  ] as const)('given no such %s in the masters, then %s is refused', (ref, field, message) => {
    expect(referenceErrors(parsed(completeDetails), { ...resolved, [ref]: null })).toEqual({ [field]: message });
  });

  test('given a deactivated item, then it can no longer be chosen', () => {
    const inactiveCity = { ...resolved, city: { id: 2701, status: 'inactive' as const, stateId: 27 } };
    expect(referenceErrors(parsed(completeDetails), inactiveCity)).toEqual({ cityId: 'Please select a city' });
  });

  test('given a reference to another item than the one named, then the named one counts as unknown', () => {
    expect(referenceErrors(parsed(completeDetails), { ...resolved, service: active(2) })).toEqual({
      serviceId: 'Please select a service',
    });
  });

  test('given a city of another state, then the city is flagged', () => {
    expect(referenceErrors(parsed(completeDetails), { ...resolved, city: active(2701, 29) })).toEqual({
      cityId: 'The city does not belong to the selected state',
    });
  });

  test('given details that name nothing yet (a draft), then nothing needs resolving', () => {
    expect(referenceErrors(parsed({}), { service: null, state: null, city: null })).toEqual({});
  });
});

describe('references in the details', () => {
  const refs: CompanyDetailsReferences = { service: null, state: { id: 27, status: 'active' }, city: null };
  test('ride along with the details and are dropped by the field rules', () => {
    const carried = withReferences(completeDetails, refs);
    expect(referencesIn(carried)).toEqual(refs);
    expect(parsed(carried)).toEqual(completeDetails);
  });
  test('are absent from details sent without them (a decision replayed from before the masters)', () => {
    expect(referencesIn(completeDetails)).toBeUndefined();
    expect(referencesIn(null)).toBeUndefined();
  });
  test('resolve nothing when malformed', () => {
    expect(referencesIn({ ...completeDetails, references: { city: 'Mumbai' } })).toEqual({ service: null, state: null, city: null });
  });
});

describe('missingForSubmit', () => {
  const allRequired = Object.fromEntries(REQUIRED_FOR_SUBMIT.map((f) => [f, messages.required]));

  test('REQUIRED_FOR_SUBMIT is the mandatory part of the registration payload', () => {
    expect([...REQUIRED_FOR_SUBMIT].sort()).toEqual(
      [
        'companyName',
        'panNumber',
        'contactPersonName',
        'serviceId',
        'stateId',
        'cityId',
        'addressLine1',
        'pinCode',
        'contactPersonMobileNumber',
      ].sort(),
    );
  });

  test('given no details at all, then exactly the required fields are missing', () => {
    expect(missingForSubmit(null)).toEqual(allRequired);
  });

  test('given empty details, then exactly the required fields are missing', () => {
    expect(missingForSubmit(parsed({}))).toEqual(allRequired);
  });

  test('given complete details, then nothing is missing', () => {
    expect(missingForSubmit(parsed(completeDetails))).toEqual({});
  });

  test('given only the optional fields are empty, then nothing is missing', () => {
    const optional = {
      cinNumber: null,
      addressLine2: null,
      companyLandline: null,
      ownFleet: null,
      attachedFleet: null,
    };
    expect(missingForSubmit(parsed({ ...completeDetails, ...optional }))).toEqual({});
  });

  test.each(REQUIRED_FOR_SUBMIT.map((f) => [f]))('given only %s empty, then only it is missing', (field) => {
    expect(missingForSubmit(parsed({ ...completeDetails, [field]: null }))).toEqual({
      [field]: messages.required,
    });
  });
});

describe('issue 8 defects: cross-field checks and plain messages', () => {
  const active = (id: number, stateId?: number) => ({ id, status: 'active' as const, ...(stateId ? { stateId } : {}) });
  const mumbai: CompanyDetailsReferences = { service: active(1), state: active(27), city: active(2701, 27) };

  test('given a Delhi pincode for a Mumbai address, then the pincode is flagged', () => {
    expect(referenceErrors(parsed({ ...completeDetails, pinCode: '110001' }), mumbai)).toEqual({
      pinCode: 'Pincode does not belong to the selected state',
    });
    expect(pincodeStateMismatch(parsed({ ...completeDetails, pinCode: '110001' }))).toEqual({ pinCode: PINCODE_STATE_MESSAGE });
  });

  test('given a Mumbai pincode for a Mumbai address, then nothing is wrong', () => {
    expect(referenceErrors(parsed({ ...completeDetails, pinCode: '400072' }), mumbai)).toEqual({});
  });

  test('given no state or no pincode yet (a draft), then the pincode is not checked', () => {
    expect(pincodeStateMismatch(parsed({ ...completeDetails, stateId: null }))).toEqual({});
    expect(pincodeStateMismatch(parsed({ ...completeDetails, pinCode: null }))).toEqual({});
  });

  test.each([
    ['#42, 2nd Main Road', 'addressLine1'],
    ['#3rd floor', 'addressLine2'],
  ])('given the address %j, then it asks for the number in plain words', (value, field) => {
    expect(errorsFor({ ...completeDetails, [field]: value })).toEqual({
      [field]: 'Start the address with the number, e.g. No. 42, 2nd Main Road',
    });
  });

  test('given another field starting with #, then the leading-character rule keeps its message', () => {
    expect(errorsFor({ ...completeDetails, companyName: '#1 Logistics' })).toEqual({ companyName: messages.leadingCharacter });
  });

  test('given the address written as the message suggests, then it is accepted', () => {
    expect(parsed({ ...completeDetails, addressLine1: 'No. 42, 2nd Main Road' }).addressLine1).toBe('No. 42, 2nd Main Road');
  });

  test.each([['98765 43210'], ['+919876543210'], ['98765abcde'], ['98765-43210']])(
    'given the mobile %j (not digits only), then it is refused',
    (mobile) => {
      expect(errorsFor({ ...completeDetails, contactPersonMobileNumber: mobile })).toEqual({ contactPersonMobileNumber: messages.mobile });
    },
  );

  test('the mobile input keeps digits only as typed', () => {
    expect(keepDigits('+91 98765-abc43210')).toBe('919876543210');
  });
});
