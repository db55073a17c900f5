/** The demo's colour theme: system, light or dark, remembered in localStorage and set on <html>. */
import type { LatchkeyTheme } from '@latchkey/react';
import { useCallback, useEffect, useState } from 'react';

const storageKey = 'latchkey-demo-theme';
const order: LatchkeyTheme[] = ['system', 'light', 'dark'];

function stored(): LatchkeyTheme {
  try {
    const value = window.localStorage.getItem(storageKey);
    return order.includes(value as LatchkeyTheme) ? (value as LatchkeyTheme) : 'system';
  } catch {
    return 'system';
  }
}

export function useTheme(): [LatchkeyTheme, () => void] {
  const [theme, setTheme] = useState<LatchkeyTheme>(stored);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    try {
      window.localStorage.setItem(storageKey, theme);
    } catch {
      // storage may be unavailable (private mode); the choice then lasts for this page only
    }
  }, [theme]);
  const next = useCallback(() => setTheme((current) => order[(order.indexOf(current) + 1) % order.length]!), []);
  return [theme, next];
}
