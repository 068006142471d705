import { createTheme } from '@mui/material/styles';

export const theme = createTheme({
  palette: {
    primary: { main: '#b71c1c' },
    secondary: { main: '#37474f' },
    background: { default: '#f4f6f8' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: "Roboto, 'Segoe UI', Helvetica, Arial, sans-serif",
    h5: { fontWeight: 600 },
    h6: { fontWeight: 600 },
  },
  components: {
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { textTransform: 'none' } },
    },
    // The brand red is also the error red: a focused field in red would look invalid, so focus is blue-grey.
    MuiTextField: { defaultProps: { fullWidth: true, size: 'small', color: 'secondary' } },
    MuiFormLabel: { defaultProps: { color: 'secondary' } },
    MuiInputLabel: { defaultProps: { color: 'secondary' } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
  },
});
