import type { ReferenceRow } from './types';

export type LocationRow = ReferenceRow<{
  locationName: string;
  locationCode: string;
  plantCode: string;
  isUnionTerritory: boolean;
  stateId: number;
}>;

/** The company's own plants and warehouses (SAP plant codes), where BAs pick up and deliver. */
const location = (id: number, locationName: string, locationCode: string, plantCode: string, stateId: number, isUnionTerritory = false): LocationRow => ({
  id,
  locationName,
  locationCode,
  plantCode,
  isUnionTerritory,
  stateId,
});

export const LOCATIONS: readonly LocationRow[] = [
  location(1, 'Chakan Warehouse', 'CHK', '1101', 27),
  location(2, 'Bhiwandi Distribution Centre', 'BWD', '1102', 27),
  location(3, 'Nagpur MIHAN Hub', 'NAG', '1103', 27),
  location(4, 'Hoskote Distribution Centre', 'HSK', '1201', 29),
  location(5, 'Sriperumbudur Warehouse', 'SPB', '1301', 33),
  location(6, 'Hosur Plant Logistics', 'HSR', '1302', 33),
  location(7, 'Kapashera Cross Dock', 'KPS', '1401', 7, true),
  location(8, 'Manesar Hub', 'MNS', '1501', 6),
  location(9, 'Sanand Warehouse', 'SND', '1601', 24),
  location(10, 'Dankuni Warehouse', 'DNK', '1701', 19),
  location(11, 'Pithampur Plant Logistics', 'PTM', '1801', 23),
  location(12, 'Zaheerabad Plant Logistics', 'ZHB', '1901', 36),
  location(13, 'Haridwar Plant Logistics', 'HDW', '2001', 5),
  location(14, 'Guwahati Distribution Centre', 'GHY', '2101', 18),
  location(15, 'Silvassa Warehouse', 'SLV', '2201', 26, true),
  location(16, 'Lucknow Distribution Centre', 'LKO', '2301', 9),
];
