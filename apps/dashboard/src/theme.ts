/** The dashboard's theme: light, dark or the system's, kept in localStorage. */
import type { LatchkeyTheme } from '@latchkey/react';
import { useEffect, useState } from 'react';

const storageKey = 'latchkey-dashboard-theme';
const order: LatchkeyTheme[] = ['system', 'light', 'dark'];

function stored(): LatchkeyTheme {
  const value = globalThis.localStorage?.getItem(storageKey);
  return value === 'light' || value === 'dark' || value === 'system' ? value : 'system';
}

/** The theme in force, and the function that moves to the next one. */
export function useTheme(): [LatchkeyTheme, () => void] {
  const [theme, setTheme] = useState(stored);
  useEffect(() => {
    document.body.classList.add('lk-root');
    document.body.dataset.lkTheme = theme;
    globalThis.localStorage?.setItem(storageKey, theme);
  }, [theme]);
  return [theme, () => setTheme((current) => order[(order.indexOf(current) + 1) % order.length]!)];
}
