import { givenWhenThen, metaFor } from '../shared/testing';
import { masterDecider } from './decide';
import type { MasterEvent } from './events';
import { masterItemStreamId } from './events';

const given = givenWhenThen(masterDecider);
const asAdmin = metaFor({ userId: 'u-admin', role: 'MLL-ADMIN', name: 'Admin' });

const created: MasterEvent = {
  type: 'MasterItemCreated',
  data: { master: 'tax-codes', id: 100000, values: { taxCode: 'C1', description: 'TDS contractors', taxRate: 2 } },
};

describe('masterDecider', () => {
  it('names the stream after the master and the id', () => {
    expect(masterItemStreamId('cities', 2701)).toBe('master-cities-2701');
    expect(masterItemStreamId('companies', '1000')).toBe('master-companies-1000');
  });

  it('creates an item with its parsed values, active', () => {
    given([])
      .when(
        { type: 'CreateMasterItem', master: 'tax-codes', id: 100000, values: { taxCode: ' C1 ', description: 'TDS contractors', taxRate: '2' } },
        asAdmin,
      )
      .then([created]);
  });

  it('creates an inactive item as created then deactivated', () => {
    given([])
      .when({ type: 'CreateMasterItem', master: 'vehicle-types', id: 7, values: { name: 'Trailer', status: 'inactive' } }, asAdmin)
      .then([
        { type: 'MasterItemCreated', data: { master: 'vehicle-types', id: 7, values: { name: 'Trailer' } } },
        { type: 'MasterItemStatusChanged', data: { master: 'vehicle-types', id: 7, status: 'inactive' } },
      ]);
  });

  it('refuses to create an item whose stream exists', () => {
    given([created])
      .when({ type: 'CreateMasterItem', master: 'tax-codes', id: 100000, values: created.data.values }, asAdmin)
      .thenError('conflict');
  });

  it('refuses invalid values with field messages and an unknown master', () => {
    given([])
      .when({ type: 'CreateMasterItem', master: 'tax-codes', id: 1, values: { taxCode: 'C1', taxRate: 101 } }, asAdmin)
      .thenError('validation', {
        errors: { description: 'This field is required', taxRate: 'Rate must be between 0 and 100' },
      });
    given([]).when({ type: 'CreateMasterItem', master: 'planets', id: 1, values: {} }, asAdmin).thenError('not_found');
  });

  it('records only the changed fields with their values before and after', () => {
    given([created])
      .when(
        { type: 'ChangeMasterItem', master: 'tax-codes', id: 100000, values: { taxCode: 'C1', description: 'TDS contractors', taxRate: 1 } },
        asAdmin,
      )
      .then([{ type: 'MasterItemChanged', data: { master: 'tax-codes', id: 100000, before: { taxRate: 2 }, after: { taxRate: 1 } } }]);
  });

  it('appends nothing when nothing changed, and folds changes into the state', () => {
    const changed: MasterEvent = {
      type: 'MasterItemChanged',
      data: { master: 'tax-codes', id: 100000, before: { taxRate: 2 }, after: { taxRate: 1 } },
    };
    given([created, changed])
      .when({ type: 'ChangeMasterItem', master: 'tax-codes', id: 100000, values: { taxRate: '1.00', description: 'TDS contractors' } }, asAdmin)
      .thenNothing();
  });

  it('sets an optional field back to empty as null', () => {
    const term: MasterEvent = {
      type: 'MasterItemCreated',
      data: { master: 'payment-terms', id: 5, values: { paymentTermCode: 'Z030', description: '30 days', days: 30 } },
    };
    given([term])
      .when({ type: 'ChangeMasterItem', master: 'payment-terms', id: 5, values: { description: '' } }, asAdmin)
      .then([
        { type: 'MasterItemChanged', data: { master: 'payment-terms', id: 5, before: { description: '30 days' }, after: { description: null } } },
      ]);
  });

  it('refuses to change an item that does not exist or with invalid values', () => {
    given([]).when({ type: 'ChangeMasterItem', master: 'tax-codes', id: 9, values: { taxRate: 1 } }, asAdmin).thenError('not_found');
    given([created])
      .when({ type: 'ChangeMasterItem', master: 'tax-codes', id: 100000, values: { taxCode: '' } }, asAdmin)
      .thenError('validation', { errors: { taxCode: 'This field is required' } });
  });

  it('changes the status once and appends nothing when already in it', () => {
    const deactivate = { type: 'SetMasterItemStatus', master: 'tax-codes', id: 100000, status: 'inactive' } as const;
    const deactivated: MasterEvent = { type: 'MasterItemStatusChanged', data: { master: 'tax-codes', id: 100000, status: 'inactive' } };
    given([created]).when(deactivate, asAdmin).then([deactivated]);
    given([created, deactivated]).when(deactivate, asAdmin).thenNothing();
    given([created]).when({ ...deactivate, status: 'active' }, asAdmin).thenNothing();
    given([created, deactivated])
      .when({ ...deactivate, status: 'active' }, asAdmin)
      .then([{ type: 'MasterItemStatusChanged', data: { master: 'tax-codes', id: 100000, status: 'active' } }]);
    given([]).when(deactivate, asAdmin).thenError('not_found');
  });
});
