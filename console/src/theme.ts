import { defaultLightTheme, type RaThemeOptions } from 'react-admin';

/** react-admin's light theme with the console's colours. */
export const theme: RaThemeOptions = {
  ...defaultLightTheme,
  palette: {
    ...defaultLightTheme.palette,
    primary: { main: '#283593' },
    secondary: { main: '#c62828' },
  },
  // Wide enough for the spec's sidebar labels ("Pending Onboarding Request") beside their badges.
  sidebar: { width: 310, closedWidth: 50 },
  components: {
    ...defaultLightTheme.components,
    // Every sidebar entry at one size: the counted ones set it on their label, a plain text entry ("Audit
    // search", "Users") took the menu item's larger default and stood out.
    RaMenuItemLink: { styleOverrides: { root: { fontSize: '0.875rem' } } },
  },
};
