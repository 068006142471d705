export { writeLaneTemplate, laneTemplateColumns } from './lane-template';
export { readLaneUpload, writeLaneErrorWorkbook, type LaneUploadResult, type UploadFailure } from './lane-upload';
export { writeBidTemplate } from './bid-template';
export { readBidUpload, writeBidErrorWorkbook, type BidUploadResult } from './bid-upload';
export {
  writeQuoteMatrix,
  writeVehicleAvailability,
  rateColumnOf,
  availabilityColumnOf,
  vehicleAvailabilityFileName,
  type BaResponse,
} from './quote-matrix';
export { XLSX_TYPE, LANE_ID_COLUMN, ERRORS_COLUMN, LANES_SHEET, OPTIONS_SHEET } from './sheet-io';
