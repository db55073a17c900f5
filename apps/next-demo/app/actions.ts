'use server';
import { signOut } from '@latchkey/next/server';
import { redirect } from 'next/navigation';

/** Ends the session on the server, then shows the home page signed out. */
export async function signOutAction() {
  await signOut();
  redirect('/');
}
