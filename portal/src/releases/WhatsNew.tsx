import { Link as RouterLink } from 'react-router-dom';
import { releasePath } from '../../../domain/src/releases/fields';
import { WhatsNewMenu } from '../../../ui/src/WhatsNewMenu';
import { useApi } from '../api/ApiContext';
import { releasesApi } from './api';

/** The BA header's What's New: releases for BAs and for everyone; each opens its release page. */
export function WhatsNew() {
  const client = useApi();
  return (
    <WhatsNewMenu
      load={() => releasesApi(client).whatsNew()}
      linkProps={(r) => ({ component: RouterLink, to: releasePath(r) })}
      icon={false}
    />
  );
}
