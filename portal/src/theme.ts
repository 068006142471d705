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
    MuiTextField: { defaultProps: { fullWidth: true, size: 'small' } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
  },
});
