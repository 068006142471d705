import NoteAddIcon from '@mui/icons-material/NoteAdd';
import { ADDITIONAL_DOCUMENTS_RESOURCE } from './access';
import { AdditionalDocumentList } from './AdditionalDocumentList';

/** The staff queue of additional documents: list only; approve / reject act per row. */
export const additionalDocuments = {
  name: ADDITIONAL_DOCUMENTS_RESOURCE,
  list: AdditionalDocumentList,
  icon: NoteAddIcon,
  options: { label: 'Additional Documents' },
} as const;

export { ADDITIONAL_DOCUMENTS_RESOURCE };
