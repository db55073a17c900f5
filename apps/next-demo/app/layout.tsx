import { LatchkeyProvider } from '@latchkey/next/server';
import type { ReactNode } from 'react';
import '@latchkey/react/styles.css';
import { Header } from './header';

export const metadata = { title: 'Latchkey on Next.js' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <LatchkeyProvider projectName="Next demo">
          <Header />
          <main>{children}</main>
        </LatchkeyProvider>
      </body>
    </html>
  );
}
