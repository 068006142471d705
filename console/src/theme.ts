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
};
