import { describe, expect, it } from 'vitest';
import { decodeMagicLinkSent } from '../auth/email-codes.js';
import { decodeSentEmails, decodeTestEmailResult } from '../emails/email-delivery.js';
import { decodeEmailPreview, decodeEmailTemplate } from '../emails/email-templates.js';
import { recordedAnswers, withField, without } from '../test-support/answers.js';
import { decodeContactChannel, decodeContactChannelList } from './contact-channels-api.js';

const { contactChannel, emailTemplate, sentEmail } = recordedAnswers;

describe('decodeContactChannel', () => {
  it('reads every field of §15.5', () => {
    expect(decodeContactChannel(contactChannel)).toEqual({
      id: contactChannel.id,
      userId: contactChannel.user_id,
      value: 'ada@example.com',
      type: 'email',
      isVerified: true,
      isPrimary: true,
      usedForAuth: true,
    });
  });

  it.each([
    ['type', 'phone', 'type must be "email"'],
    ['is_primary', 'yes', 'is_primary must be a boolean'],
    ['value', null, 'value must be a string'],
  ])('refuses %s = %j', (key, value, problem) => {
    expect(() => decodeContactChannel(withField(contactChannel, key, value))).toThrow(problem);
  });

  it('decodes a list, naming the item of a malformed channel', () => {
    const list = { items: [contactChannel], is_paginated: false };
    expect(decodeContactChannelList(list)).toEqual([decodeContactChannel(contactChannel)]);
    expect(() => decodeContactChannelList({ items: [contactChannel, without(contactChannel, 'user_id')] })).toThrow(
      'items[1].user_id is missing',
    );
  });
});

describe('decoders of the e-mail answers', () => {
  it('reads the nonce of a magic-link mail, refusing an empty one', () => {
    expect(decodeMagicLinkSent({ nonce: 'a'.repeat(39) })).toEqual({ nonce: 'a'.repeat(39) });
    expect(() => decodeMagicLinkSent({ nonce: '' })).toThrow('nonce must be a non-empty string');
  });

  it('reads a template, passing its content through untouched, and refuses an unknown type', () => {
    expect(decodeEmailTemplate(emailTemplate)).toEqual({
      type: 'password_reset',
      subject: 'Reset your password',
      content: emailTemplate.content,
      isDefault: false,
    });
    expect(() => decodeEmailTemplate(withField(emailTemplate, 'type', 'welcome'))).toThrow(
      'type must be an e-mail template type',
    );
  });

  it('reads a preview', () => {
    expect(decodeEmailPreview({ subject: 's', html: '<p>h</p>', text: 't' })).toEqual({
      subject: 's',
      html: '<p>h</p>',
      text: 't',
    });
    expect(() => decodeEmailPreview({ subject: 's', html: '<p>h</p>' })).toThrow('text is missing');
  });

  it('reads a test mail result; a failure must carry its error message', () => {
    expect(decodeTestEmailResult({ success: true })).toEqual({ success: true });
    expect(decodeTestEmailResult({ success: false, error_message: 'Greeting never received' })).toEqual({
      success: false,
      errorMessage: 'Greeting never received',
    });
    expect(() => decodeTestEmailResult({ success: false })).toThrow('error_message is missing');
  });

  it('reads the delivery status of sent mails, with dates', () => {
    const sent = { ...sentEmail, status: 'sent', sent_at_millis: 1_700_000_060_000 };
    expect(decodeSentEmails({ items: [sentEmail, sent], is_paginated: false })).toEqual([
      {
        id: sentEmail.id,
        kind: 'password_reset',
        recipient: 'ada@example.com',
        subject: 'Reset your password',
        status: 'queued',
        attempts: 1,
        lastError: 'connect ECONNREFUSED 127.0.0.1:2525',
        createdAt: new Date(1_700_000_000_000),
        sentAt: null,
      },
      expect.objectContaining({ status: 'sent', sentAt: new Date(1_700_000_060_000) }),
    ]);
    expect(() => decodeSentEmails({ items: [withField(sentEmail, 'sent_at_millis', 'soon')] })).toThrow(
      'items[0].sent_at_millis must be a number or null',
    );
  });
});
