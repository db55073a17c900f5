/**
 * Keyboard and focus behaviour of a menu button (WAI-ARIA menu button
 * pattern): the button opens the menu and focuses its first item (ArrowUp:
 * the last); arrows, Home and End move between items; Escape closes and
 * returns focus to the button; Tab closes and moves on from the button; a
 * click outside closes.
 *
 * `{ popup: 'dialog' }` makes it a popover that holds more than items (the
 * team switcher's create form): the item marked `aria-current="true"` takes
 * the focus first, arrows move between the `itemSelector` items only while one
 * has the focus, Tab moves through the popover as usual, and the focus
 * leaving it closes it.
 */
import { type FocusEvent, type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';

type FocusTarget = 'first' | 'last';

export function useMenu({ popup = 'menu', itemSelector = '[role="menuitem"]' } = {}) {
  const dialog = popup === 'dialog';
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<FocusTarget | null>(null);

  const items = useCallback(
    () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>(itemSelector) ?? []),
    [itemSelector],
  );

  const openMenu = useCallback((focus: FocusTarget) => {
    pendingFocus.current = focus;
    setOpen(true);
  }, []);

  const close = useCallback((restoreFocus: boolean) => {
    setOpen(false);
    if (restoreFocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open || !pendingFocus.current) return;
    const list = items();
    const current = list.find((item) => item.getAttribute('aria-current') === 'true');
    (pendingFocus.current === 'first' ? (current ?? list[0]) : list[list.length - 1])?.focus();
    pendingFocus.current = null;
  }, [open, items]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointerDown);
    return () => document.removeEventListener('mousedown', onPointerDown);
  }, [open]);

  const buttonProps = {
    ref: buttonRef,
    'aria-haspopup': popup as 'menu' | 'dialog',
    'aria-expanded': open,
    onClick: () => (open ? close(false) : openMenu('first')),
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        openMenu(event.key === 'ArrowDown' ? 'first' : 'last');
      } else if (event.key === 'Escape' && open) {
        event.preventDefault();
        close(true);
      }
    },
  };

  const menuProps = {
    ref: menuRef,
    role: popup as 'menu' | 'dialog',
    onBlur: (event: FocusEvent) => {
      const next = event.relatedTarget as Node | null;
      if (dialog && next && !menuRef.current?.contains(next) && !buttonRef.current?.contains(next)) setOpen(false);
    },
    onKeyDown: (event: KeyboardEvent) => {
      const list = items();
      const index = list.indexOf(document.activeElement as HTMLElement);
      if (dialog && index < 0 && event.key !== 'Escape') return;
      const move = (to: number) => {
        event.preventDefault();
        list[(to + list.length) % list.length]?.focus();
      };
      if (event.key === 'ArrowDown') move(index + 1);
      else if (event.key === 'ArrowUp') move(index < 0 ? -1 : index - 1);
      else if (event.key === 'Home') move(0);
      else if (event.key === 'End') move(-1);
      else if (event.key === 'Escape') {
        event.preventDefault();
        close(true);
      } else if (event.key === 'Tab' && !dialog) {
        // Tab leaves from the button, so it lands just after (Shift+Tab: before) it however the menu is placed.
        close(true);
      }
    },
  };

  return { open, close, buttonProps, menuProps };
}
