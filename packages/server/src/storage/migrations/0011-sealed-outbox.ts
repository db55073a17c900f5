/**
 * Outbox bodies sealed at rest: a mail's subject, HTML and text wait in
 * `sealed_content`, encrypted under the master secret (`mail/sealed-mail.ts`),
 * so a read of the table yields no working link or code. `subject` stays in
 * clear for the delivery status admins read, with any code in it masked.
 * Bodies go once a mail is delivered over SMTP or given up on; the bodies of
 * mails already given up on go now. Mails queued before this migration keep
 * their clear body until they are sent or given up on (SQL cannot seal).
 */
export default `
ALTER TABLE email_outbox ADD COLUMN sealed_content text;
UPDATE email_outbox SET html = NULL, text_body = NULL WHERE status = 'failed';
`;
