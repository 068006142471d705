import { rfpFileNames, rfpMessages, templateTimestamp } from './messages';

describe('spec 001 §8 messages, verbatim', () => {
  const verbatim: [keyof typeof rfpMessages, string][] = [
    ['addNewBa', 'Please Add New BA to float RFP'],
    ['noRecords', 'No Records Available!!'],
    ['laneResponseSaved', 'Successfully Saved Lane Response...!!! '],
    ['fileUploadSuccessful', 'File upload successful...!!!'],
    ['fileUploaded', 'File uploaded successfully'],
    ['fileDeleted', 'File deleted successfully'],
    ['termsUploaded', 'Terms and Conditions file uploaded successfully'],
    ['inviteSent', 'Invite to BA has been sent successfully'],
    ['invalidExcel', 'Invalid file type selected. Please select excel file only.'],
    ['opportunitySessionTimedOut', 'Session Timed Out. Please login again'],
  ];
  test.each(verbatim)('%s', (key, text) => {
    expect(rfpMessages[key]).toBe(text);
  });
});

describe('spec 001 §7 download names', () => {
  it('dates the RFP template DD-MMM-YYYY HH:mm:ss in India time', () => {
    expect(templateTimestamp('2026-11-26T15:46:07.000Z')).toBe('26-Nov-2026 21:16:07');
    expect(templateTimestamp('2026-01-04T18:35:09.000Z')).toBe('05-Jan-2026 00:05:09');
    expect(rfpFileNames.rfpTemplate('Sahyadri Foods Pvt Ltd', '2026-11-26T15:46:07.000Z')).toBe('RFP Template_-Sahyadri Foods Pvt Ltd-26-Nov-2026 21:16:07.xlsx');
  });

  it('keeps a customer name from escaping the download folder', () => {
    expect(rfpFileNames.rfpTemplate('A/B: "C"', '2026-11-26T15:46:07.000Z')).toBe('RFP Template_-A_B_ _C_-26-Nov-2026 21:16:07.xlsx');
  });

  const named: [keyof typeof rfpFileNames, string][] = [
    ['baBidTemplate', 'BABidTemplate1-RFP-7.xlsx'],
    ['baRfpTemplate', 'BARFPPTemplate-RFP-7.xlsx'],
    ['quoteMatrix', 'BA Quote-Matrix format-RFP-7.xlsx'],
    ['templateWithData', 'TemplateWithData-RFP-7.xlsx'],
    ['terms', 'TermsNCondition-RFP-7.pdf'],
    ['rfpTemplateErrors', 'RFPTemplateError-RFP-7.xlsx'],
    ['baTemplateErrors', 'RFPTemplateErrorBA-RFP-7.xlsx'],
  ];
  test.each(named)('%s', (key, name) => {
    expect((rfpFileNames[key] as (code: string) => string)('RFP-7')).toBe(name);
  });
});
