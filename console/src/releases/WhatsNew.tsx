import { releasePath } from '../../../domain/src/releases/fields';
import { WhatsNewMenu } from '../../../ui/src/WhatsNewMenu';
import { fetchReleasesFor } from './api';

/**
 * The console header's What's New: the releases meant for every user (class `all`; those for BAs only are in
 * the Releases list). Each opens its public release page, served by the portal, in a new tab.
 */
export const WhatsNew = () => (
  <WhatsNewMenu
    load={() => fetchReleasesFor('all')}
    linkProps={(r) => ({ component: 'a', href: releasePath(r), target: '_blank', rel: 'noopener' })}
  />
);
