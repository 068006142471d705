import { STATES } from '../masters/reference-data/states';
import { PINCODE_PREFIXES, PINCODE_STATE_MESSAGE, pincodeFitsState, pincodeStateErrors } from './pincodes';

describe('pincodes per state', () => {
  test('every state of the states master has its PIN code ranges (keyed by its id, the GST state code)', () => {
    expect(STATES.filter((s) => !PINCODE_PREFIXES[Number(s.id)]).map((s) => s.name)).toEqual([]);
  });

  test.each([
    ['400001', 27, 'Mumbai, Maharashtra'],
    ['411026', 27, 'Pune, Maharashtra'],
    ['110020', 7, 'Delhi'],
    ['560058', 29, 'Bengaluru, Karnataka'],
    ['600032', 33, 'Chennai, Tamil Nadu'],
    ['382405', 24, 'Ahmedabad, Gujarat'],
    ['700001', 19, 'Kolkata, West Bengal'],
    ['500001', 36, 'Hyderabad, Telangana'],
    ['403001', 30, 'Panaji, Goa'],
    ['160055', 3, 'Mohali, Punjab'],
    ['160017', 4, 'Chandigarh'],
    ['605001', 34, 'Puducherry'],
    ['194101', 38, 'Leh, Ladakh'],
  ])('%s fits state %s (%s)', (pin, stateId) => {
    expect(pincodeFitsState(pin, stateId)).toBe(true);
    expect(pincodeStateErrors(pin, stateId)).toEqual({});
  });

  test.each([
    ['110001', 27, 'a Delhi pincode for Maharashtra'],
    ['400001', 7, 'a Mumbai pincode for Delhi'],
    ['560001', 33, 'a Bengaluru pincode for Tamil Nadu'],
  ])('%s does not fit state %s (%s)', (pin, stateId) => {
    expect(pincodeFitsState(pin, stateId)).toBe(false);
    expect(pincodeStateErrors(pin, stateId)).toEqual({ pinCode: 'Pincode does not belong to the selected state' });
    expect(pincodeStateErrors(pin, stateId, 'pin')).toEqual({ pin: PINCODE_STATE_MESSAGE });
  });

  test.each([
    ['40001', 27],
    [null, 27],
    ['400001', null],
    ['400001', 99],
  ])('cannot tell for %j in state %j (its own rules report what is wrong)', (pin, stateId) => {
    expect(pincodeFitsState(pin, stateId)).toBeNull();
    expect(pincodeStateErrors(pin, stateId)).toEqual({});
  });
});
