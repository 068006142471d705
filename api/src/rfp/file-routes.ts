import type { Readable } from 'node:stream';
import { Router, type Request, type Response } from 'express';
import { rfpFileNames, rfpMessages } from '../../../domain/src/rfp/messages';
import type { LaneColumn } from '../../../domain/src/rfp/model';
import { DomainError } from '../../../domain/src/shared/errors';
import { getRfp, getRfpForBa } from '../../../projections/src/rfps/rfps.queries';
import { uploadRfpLanes, uploadRfpTerms, submitLaneResponses } from '../../../workflows/src/rfp/client';
import { principalOf } from '../http/auth';
import { HttpError } from '../http/problem';
import { contentDisposition, receiveUpload, sendFile, type UploadedFile } from '../http/uploads';
import {
  availabilityColumnOf,
  readBidUpload,
  readLaneUpload,
  vehicleAvailabilityFileName,
  writeBidErrorWorkbook,
  writeBidTemplate,
  writeLaneErrorWorkbook,
  writeLaneTemplate,
  writeQuoteMatrix,
  writeVehicleAvailability,
  XLSX_TYPE,
} from '../rfp-workbooks';
import type { UploadFailure } from '../rfp-workbooks';
import { baIdOf, isBa, notFound, rfpAccess, rfpCodeParam, rfpRouteMessages } from './access';
import { headerDataFor, requiredFlagsOf } from './columns';
import { allLanes, quotesByLane, responsesOf } from './rfp-data';
import type { RfpRouteKit } from './routes';

/**
 * The RFP's files (spec 001 §7 downloads and their names): the lane template and its upload (400 answers the
 * error workbook), the T&C PDF, the quote matrix and vehicle availability, and the BA's bid template and bid
 * upload. Workbooks are written by api/src/rfp-workbooks, streamed straight into the response.
 */
export function rfpFileRoutes(kit: RfpRouteKit): Router {
  const { deps } = kit;
  const { pool, blobStore } = deps;
  const router = Router();

  function startXlsx(res: Response, status: number, name: string): void {
    res.status(status);
    res.setHeader('Content-Type', XLSX_TYPE);
    res.setHeader('Content-Disposition', contentDisposition(name, 'attachment'));
  }

  /** An uploaded sheet's bytes (sheets are read whole: at most the upload cap). */
  async function bytesOf(file: UploadedFile): Promise<Buffer> {
    const stream: Readable | null = await blobStore.get(file.sha256);
    if (!stream) throw new HttpError(503, 'File uploads are not available');
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** A refused sheet: 400 with every uploaded row and its errors, as a workbook to correct and upload again. */
  async function sendErrors(res: Response, name: string, failure: UploadFailure, write: typeof writeLaneErrorWorkbook): Promise<void> {
    startXlsx(res, 400, name);
    // The first problem in words, for a client that shows a message beside the download.
    const first = failure.sheetError ?? failure.rows.find((r) => r.errors.length > 0)?.errors[0] ?? rfpMessages.invalid;
    res.setHeader('X-Upload-Error', encodeURIComponent(first));
    res.setHeader('X-Failed-Rows', String(failure.failedRows));
    await write(failure, res);
  }

  /** Step 3's columns, or (before step 3 is saved) the ones step 2's choice makes. */
  async function columnsOf(record: { columns: LaneColumn[]; steps: { 2: Parameters<typeof headerDataFor>[1] | null } }): Promise<LaneColumn[]> {
    if (record.columns.length > 0) return record.columns;
    if (!record.steps[2]) throw new DomainError('rule', rfpRouteMessages.noColumns);
    return (await headerDataFor(pool, record.steps[2])).columns;
  }

  router.get('/rfps/:code/template', rfpAccess.staffRead(), async (req, res) => {
    const record = await kit.staffRfp(req, principalOf(res));
    const columns = await columnsOf(record);
    const lanes = record.laneCount > 0 ? await allLanes(pool, record.rfpCode) : undefined;
    // The responses screen's "template with data" is the same sheet under the spec's other name.
    const withData = req.query['withData'] === '1' && lanes !== undefined;
    startXlsx(res, 200, withData ? rfpFileNames.templateWithData(record.rfpCode) : rfpFileNames.rfpTemplate(record.customerName, new Date()));
    await writeLaneTemplate(columns, lanes, res);
  });

  router.post('/rfps/:code/lanes/upload', rfpAccess.staff(), async (req, res) => {
    const p = principalOf(res);
    const record = await kit.staffRfp(req, p);
    const { file } = await receiveUpload(req, { blobStore, kinds: 'excel', maxBytes: deps.maxBytes });
    const columns = await columnsOf(record);
    const read = await readLaneUpload(columns, await bytesOf(file), record.rfpType ? { rfpType: record.rfpType } : {});
    if (!read.ok) return sendErrors(res, rfpFileNames.rfpTemplateErrors(record.rfpCode), read, writeLaneErrorWorkbook);
    const result = await uploadRfpLanes(deps.temporal, record.rfpCode, { headerData: columns, lanes: read.lanes, file }, kit.contextOf(req, p, 'uploadLanes'));
    res.json({ message: rfpMessages.fileUploadSuccessful, lanes: read.lanes.length, rfp: await kit.staffAnswer(record.rfpCode, p, result) });
  });

  router.post('/rfps/:code/terms', rfpAccess.staff(), async (req, res) => {
    const p = principalOf(res);
    const record = await kit.staffRfp(req, p);
    const { file } = await receiveUpload(req, { blobStore, kinds: 'imageOrPdf', maxBytes: deps.maxBytes });
    if (file.type !== 'application/pdf') throw new DomainError('validation', rfpMessages.termsPdf, { file: rfpMessages.termsPdf });
    const result = await uploadRfpTerms(deps.temporal, record.rfpCode, file, kit.contextOf(req, p, 'uploadTerms'));
    await kit.settled(result);
    res.json({ message: rfpMessages.termsUploaded });
  });

  router.get('/rfps/:code/terms', rfpAccess.read(), async (req, res) => {
    const p = principalOf(res);
    const code = rfpCodeParam(req);
    // A BA gets the T&C only of an RFP floated to it, and only when staff made them downloadable.
    const terms = isBa(p) ? (await getRfpForBa(pool, code, baIdOf(p)))?.terms : (await kit.staffRfp(req, p)).terms;
    if (!terms) throw new HttpError(404, rfpRouteMessages.noTerms);
    await sendFile(res, blobStore, { ...terms, name: rfpFileNames.terms(code) }, { inline: req.query['inline'] === '1' });
  });

  router.get('/rfps/:code/quote-matrix', rfpAccess.staffRead(), async (req, res) => {
    const record = await kit.staffRfp(req, principalOf(res));
    const [lanes, responses] = await Promise.all([allLanes(pool, record.rfpCode), responsesOf(pool, record.rfpCode, record.round)]);
    startXlsx(res, 200, rfpFileNames.quoteMatrix(record.rfpCode));
    await writeQuoteMatrix(record.columns, lanes, responses, res);
  });

  router.get('/rfps/:code/vehicle-availability', rfpAccess.staffRead(), async (req, res) => {
    const record = await kit.staffRfp(req, principalOf(res));
    if (!availabilityColumnOf(record.columns)) throw new HttpError(404, rfpRouteMessages.noAvailability);
    const [lanes, responses] = await Promise.all([allLanes(pool, record.rfpCode), responsesOf(pool, record.rfpCode, record.round)]);
    startXlsx(res, 200, vehicleAvailabilityFileName(record.rfpCode));
    await writeVehicleAvailability(record.columns, lanes, responses, res);
  });

  /** The RFP of the path as the calling BA sees it; 404 unless it was floated to that BA. */
  async function baRfp(req: Request, res: Response) {
    const baId = baIdOf(principalOf(res));
    const rfp = await getRfpForBa(pool, rfpCodeParam(req), baId);
    if (!rfp) throw notFound();
    return { baId, rfp };
  }

  router.get('/rfps/:code/bid-template', rfpAccess.bidders(), async (req, res) => {
    const { baId, rfp } = await baRfp(req, res);
    const [lanes, quotes] = await Promise.all([allLanes(pool, rfp.rfpCode), quotesByLane(pool, rfp.rfpCode, rfp.round, baId)]);
    startXlsx(res, 200, rfpFileNames.baBidTemplate(rfp.rfpCode));
    await writeBidTemplate(rfp.columns, lanes, quotes, res);
  });

  router.post('/rfps/:code/bids', rfpAccess.bidders(), async (req, res) => {
    const p = principalOf(res);
    const { baId, rfp } = await baRfp(req, res);
    const { file } = await receiveUpload(req, { blobStore, kinds: 'excel', maxBytes: deps.maxBytes });
    // The required flags live with step 2, which a BA never sees: read on the server only.
    const step2 = (await getRfp(pool, rfp.rfpCode, { companyCodes: 'all' }))?.steps[2] ?? null;
    const flags = step2 ? await requiredFlagsOf(pool, step2) : { isRequiredByBa: false };
    const lanes = await allLanes(pool, rfp.rfpCode);
    const read = await readBidUpload(rfp.columns, lanes, await bytesOf(file), { quoteEveryLane: flags.isRequiredByBa });
    if (!read.ok) return sendErrors(res, rfpFileNames.baTemplateErrors(rfp.rfpCode), read, writeBidErrorWorkbook);
    const result = await submitLaneResponses(deps.temporal, rfp.rfpCode, { baId, round: rfp.round, quotes: read.quotes }, kit.contextOf(req, p, 'respond'));
    await kit.settled(result);
    res.json({ message: rfpMessages.fileUploadSuccessful, round: rfp.round, lanes: Object.keys(read.quotes).length });
  });

  return router;
}
