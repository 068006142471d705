import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { saveBlob } from '../../../ui/src/saveBlob';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf } from '../api/client';
import { useFeedback } from '../shared/feedback';
import { billHubApi, memoPdfName } from './api';
import { BILL_HUB_PATH } from './paths';
import type { MemoDetail } from './types';

/** One memo for the view and print pages, and its PDF download (GET …/pdf with the session token). */
export function useMemoDetail(id: string) {
  const client = useApi();
  const api = useMemo(() => billHubApi(client), [client]);
  const { showError, withLoading } = useFeedback();
  const navigate = useNavigate();
  const [memo, setMemo] = useState<MemoDetail | null>(null);

  useEffect(() => {
    let live = true;
    api.memo(id).then(
      (m) => live && setMemo(m),
      (e: unknown) => {
        if (!live || (isApiError(e) && e.status === 401)) return;
        showError(messageOf(e), () => navigate(BILL_HUB_PATH));
      },
    );
    return () => {
      live = false;
    };
  }, [api, id, navigate, showError]);

  const downloadPdf = async () => {
    if (!memo) return;
    try {
      saveBlob(await withLoading(() => api.memoPdf(memo.id)), memoPdfName(memo.memoNumber));
    } catch (e) {
      if (!(isApiError(e) && e.status === 401)) showError(messageOf(e));
    }
  };

  return { memo, downloadPdf };
}
