/** The API resource of the staff queue of additional documents (GET /api/additional-documents). */
export const ADDITIONAL_DOCUMENTS_RESOURCE = 'additional-documents';
