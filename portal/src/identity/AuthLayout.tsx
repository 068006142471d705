import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';

/** The frame of the signed-out screens: a brand band across the top and one card straddling it. */
export function AuthLayout({
  title = 'BA Portal',
  subtitle,
  children,
  wide = false,
}: {
  title?: string;
  subtitle?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        p: 2,
        background: 'linear-gradient(180deg, #b71c1c 0, #8e0000 40vh, #f4f6f8 40vh)',
      }}
    >
      <Card sx={{ width: '100%', maxWidth: wide ? 520 : 440, boxShadow: 6, border: 0 }}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Stack spacing={1} sx={{ alignItems: 'center', mb: 3, textAlign: 'center' }}>
            <LocalShippingIcon color="primary" sx={{ fontSize: 44 }} aria-hidden />
            <Typography variant="h5" component="h1">
              {title}
            </Typography>
            {subtitle && (
              <Typography variant="body2" color="text.secondary">
                {subtitle}
              </Typography>
            )}
          </Stack>
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}
