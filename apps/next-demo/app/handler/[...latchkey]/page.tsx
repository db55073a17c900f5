// Every Latchkey page (sign-in, sign-up, password reset, account settings, ...) under /handler.
export { HandlerPage as default } from '@latchkey/next/server';
