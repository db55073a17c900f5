/**
 * Renders a project's e-mail of one template type (its edited template, or
 * the default) into subject, HTML and plain text.
 *
 * HTML comes from React Email's components (`@react-email/*`, rendered with
 * `@react-email/render`): table-based markup with inline styles, the form
 * Outlook, Gmail and Apple Mail all display, and React escapes every text
 * node and attribute, so a variable can never become markup. The plain-text
 * part is written from the same document (not scraped back out of the HTML),
 * so each link and code appears exactly as the flow passed it.
 *
 * Variables are text. Links are the only URLs in a mail, and only the flows
 * supply them (a template can name a link variable, never hold a URL). Text
 * another user wrote (a team's name, an inviter's: `untrusted` variables)
 * must not become a link either: a zero-width space follows each `.`, `:`,
 * `/` and `@` in it, which breaks every pattern the auto-linkers of Gmail,
 * Outlook and Apple Mail look for (scheme, `www.`, dotted host names, e-mail
 * addresses) in both parts, while the text reads the same. In a subject such
 * a value is also capped and quoted, so it cannot pass for the sender's words.
 * Subjects are one line: CR, LF and other control characters become spaces,
 * so no value can add a header. A block that names a variable without a value
 * (the user's name when unknown) is left out; an empty layout renders the
 * type's default body.
 *
 * React and React Email are imported at the first mail rendered, not at
 * start (with html-to-text and the HTML parsers `@react-email/render` brings,
 * about 70 ms of a `latchkey dev` start that renders no mail).
 */
import type { ReactNode } from 'react';
import type { ProjectRecord } from '../projects/projects.js';
import type { Db } from '../storage/db.js';
import { defaultColors, defaultTemplate, type TemplateSource } from './default-templates.js';
import { findStoredTemplate, type StoredTemplate } from './email-template-store.js';
import {
  type fontFamilies,
  splitPlaceholders,
  type TemplateBlock,
  type TemplateDocument,
  type TextPart,
  templateDocumentSchema,
  templateProblems,
} from './template-document.js';
import { type EmailTemplateType, type EmailTemplateVariables, templateVariables } from './template-types.js';

/** What a mail is drawn with: React's `createElement` and the React Email components and renderer. */
interface ReactEmail {
  h: typeof import('react').createElement;
  render: typeof import('@react-email/render').render;
  Body: typeof import('@react-email/body').Body;
  Button: typeof import('@react-email/button').Button;
  Container: typeof import('@react-email/container').Container;
  Head: typeof import('@react-email/head').Head;
  Heading: typeof import('@react-email/heading').Heading;
  Hr: typeof import('@react-email/hr').Hr;
  Html: typeof import('@react-email/html').Html;
  Link: typeof import('@react-email/link').Link;
  Preview: typeof import('@react-email/preview').Preview;
  Section: typeof import('@react-email/section').Section;
  Text: typeof import('@react-email/text').Text;
}

let reactEmail: Promise<ReactEmail> | undefined;

/** React and React Email, imported once on first use; a failed import rejects each use with its own error. */
function loadReactEmail(): Promise<ReactEmail> {
  reactEmail ??= (async () => {
    const [react, renderer, body, button, container, head, heading, hr, html, link, preview, section, text] =
      await Promise.all([
        import('react'),
        import('@react-email/render'),
        import('@react-email/body'),
        import('@react-email/button'),
        import('@react-email/container'),
        import('@react-email/head'),
        import('@react-email/heading'),
        import('@react-email/hr'),
        import('@react-email/html'),
        import('@react-email/link'),
        import('@react-email/preview'),
        import('@react-email/section'),
        import('@react-email/text'),
      ]);
    return {
      h: react.createElement,
      render: renderer.render,
      Body: body.Body,
      Button: button.Button,
      Container: container.Container,
      Head: head.Head,
      Heading: heading.Heading,
      Hr: hr.Hr,
      Html: html.Html,
      Link: link.Link,
      Preview: preview.Preview,
      Section: section.Section,
      Text: text.Text,
    };
  })();
  return reactEmail;
}

/** A rendered mail. */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/**
 * Renders the project's mail of `type` with `variables`: the project's edited
 * template when it has one, else the default.
 *
 * @example
 * const mail = await renderEmail(db, project, 'password_reset', {
 *   userDisplayName: 'Ada', passwordResetLink: 'https://app.example.com/handler/password-reset?code=…',
 * });
 * mail.subject; // 'Reset your Acme password'
 */
export async function renderEmail<T extends EmailTemplateType>(
  db: Db,
  project: ProjectRecord,
  type: T,
  variables: EmailTemplateVariables[T],
): Promise<RenderedEmail> {
  const stored = await findStoredTemplate(db, project.id, type);
  return renderTemplate(project, type, usableTemplate(type, stored), variables);
}

/**
 * The template a mail of `type` is rendered from: the stored one when it is
 * still valid for its type, else the default (a row written by an older
 * version that no longer validates must not stop mail from going out).
 *
 * @example
 * const source = usableTemplate('magic_link', await findStoredTemplate(db, projectId, 'magic_link'));
 */
export function usableTemplate(type: EmailTemplateType, stored: StoredTemplate | undefined): TemplateSource {
  if (!stored) return defaultTemplate(type);
  const parsed = templateDocumentSchema.safeParse(stored.content);
  if (!parsed.success || templateProblems(type, stored.subject, parsed.data).length > 0) return defaultTemplate(type);
  return { subject: stored.subject, content: parsed.data };
}

/**
 * Renders a template (already validated for `type`) with `variables`.
 *
 * @example
 * const preview = await renderTemplate(project, 'magic_link', defaultTemplate('magic_link'), sampleVariables.magic_link);
 */
export async function renderTemplate<T extends EmailTemplateType>(
  project: ProjectRecord,
  type: T,
  source: TemplateSource,
  variables: EmailTemplateVariables[T],
): Promise<RenderedEmail> {
  const values = valuesOf(project, type, variables);
  const document = source.content.root.data.childrenIds.length > 0 ? source.content : defaultTemplate(type).content;
  const subject =
    oneLine(fill(splitPlaceholders(source.subject), values, true)) ||
    oneLine(fill(splitPlaceholders(defaultTemplate(type).subject), values, true));
  const email = await loadReactEmail();
  const html = await email.render(emailElement(email, document, values, subject));
  return { subject, html, text: plainText(document, values) };
}

/**
 * A variable's value as rendered: text (`quoted`: how an untrusted one reads
 * in a subject), or a link (an http(s) URL, shown and linked as given).
 */
type Value = { kind: 'text'; text: string; quoted?: string } | { kind: 'link'; url: string };

function valuesOf<T extends EmailTemplateType>(
  project: ProjectRecord,
  type: T,
  variables: EmailTemplateVariables[T],
): Map<string, Value | null> {
  const values = new Map<string, Value | null>();
  const given: Record<string, string | null> = { projectDisplayName: project.displayName, ...variables };
  const { links, untrusted } = templateVariables[type];
  for (const [name, raw] of Object.entries(given)) {
    if (raw === null || raw === undefined || raw.trim() === '') {
      values.set(name, null);
    } else if (links.includes(name)) {
      values.set(name, { kind: 'link', url: checkedLink(name, raw) });
    } else if (untrusted.includes(name)) {
      const text = raw.replace(controlCharacters, ' ');
      values.set(name, { kind: 'text', text: unlinkable(text), quoted: `“${unlinkable(capped(text.trim()))}”` });
    } else {
      values.set(name, { kind: 'text', text: raw.replace(controlCharacters, ' ') });
    }
  }
  return values;
}

/** The longest untrusted value a subject shows, in characters. */
const subjectValueLength = 40;

function capped(text: string): string {
  const characters = [...text];
  return characters.length <= subjectValueLength ? text : `${characters.slice(0, subjectValueLength - 1).join('')}…`;
}

/** Text no auto-linker reads a URL, host name or address in: a zero-width space after each `.`, `:`, `/` and `@`. */
function unlinkable(text: string): string {
  return text.replace(/[.:/@]/g, '$&\u200b');
}

/** C0 and C1 controls (CR and LF among them) and the Unicode line and paragraph separators. */
const controlCharacters = /[\p{Cc}\u2028\u2029]+/gu;

/** A link from a flow: it must be an absolute http(s) URL (a flow bug must not put `javascript:` in a mail). */
function checkedLink(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`e-mail variable ${name} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`e-mail variable ${name} is not http(s)`);
  return url.href;
}

/** Whether every placeholder of `parts` has a value (else the block is left out). */
function complete(parts: TextPart[], values: Map<string, Value | null>): boolean {
  return parts.every((part) => typeof part === 'string' || values.get(part.variable));
}

/** The parts with their values; `subject`: untrusted values capped and quoted. */
function fill(parts: TextPart[], values: Map<string, Value | null>, subject = false): string {
  return parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const value = values.get(part.variable);
      if (!value) return '';
      if (value.kind === 'link') return value.url;
      return subject && value.quoted !== undefined ? value.quoted : value.text;
    })
    .join('');
}

/** The URL a button's `url` (one link placeholder, checked on save) stands for, or null. */
function linkOf(url: string, values: Map<string, Value | null>): string | null {
  const [only, ...rest] = splitPlaceholders(url.trim());
  if (rest.length > 0 || typeof only !== 'object') return null;
  const value = values.get(only.variable);
  return value?.kind === 'link' ? value.url : null;
}

/** One header-safe line: control characters (CR and LF included) become spaces, runs of spaces one. */
function oneLine(text: string): string {
  return text.replace(controlCharacters, ' ').replace(/\s+/g, ' ').trim();
}

// ---- HTML ----

const fontFamily =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Helvetica, Arial, sans-serif";
const headingSizes = { h1: 24, h2: 20, h3: 17 } as const;

/** The CSS font stack of each of the builder's font families. */
const fontStacks: Record<(typeof fontFamilies)[number], string> = {
  MODERN_SANS: fontFamily,
  BOOK_SANS: "Optima, Candara, 'Noto Sans', source-sans-pro, sans-serif",
  ORGANIC_SANS: "Seravek, 'Gill Sans Nova', Ubuntu, Calibri, 'DejaVu Sans', source-sans-pro, sans-serif",
  GEOMETRIC_SANS: "Avenir, 'Avenir Next LT Pro', Montserrat, Corbel, 'URW Gothic', source-sans-pro, sans-serif",
  HEAVY_SANS:
    "Bahnschrift, 'DIN Alternate', 'Franklin Gothic Medium', 'Nimbus Sans Narrow', sans-serif-condensed, sans-serif",
  ROUNDED_SANS:
    "ui-rounded, 'Hiragino Maru Gothic ProN', Quicksand, Comfortaa, Manjari, 'Arial Rounded MT Bold', Calibri, source-sans-pro, sans-serif",
  MODERN_SERIF: "Charter, 'Bitstream Charter', 'Sitka Text', Cambria, serif",
  BOOK_SERIF: "'Iowan Old Style', 'Palatino Linotype', 'URW Palladio L', P052, serif",
  MONOSPACE: "'Nimbus Mono PS', 'Courier New', 'Cutive Mono', monospace",
};

type BlockStyle = {
  color?: string | null;
  backgroundColor?: string | null;
  fontFamily?: (typeof fontFamilies)[number] | null;
  fontWeight?: 'bold' | 'normal' | null;
  padding?: { top: number; right: number; bottom: number; left: number } | null;
};

/** The CSS of a block's optional builder styles (null and unset leave the default). */
function builderStyle(style: BlockStyle | null | undefined) {
  if (!style) return {};
  const { padding } = style;
  return {
    ...(style.color ? { color: style.color } : {}),
    ...(style.backgroundColor ? { backgroundColor: style.backgroundColor } : {}),
    ...(style.fontFamily ? { fontFamily: fontStacks[style.fontFamily] } : {}),
    ...(style.fontWeight ? { fontWeight: style.fontWeight === 'bold' ? 700 : 400 } : {}),
    ...(padding ? { padding: `${padding.top}px ${padding.right}px ${padding.bottom}px ${padding.left}px` } : {}),
  };
}

function emailElement(
  email: ReactEmail,
  document: TemplateDocument,
  values: Map<string, Value | null>,
  subject: string,
): ReactNode {
  const { h, Html, Head, Preview, Body, Container } = email;
  const layout = document.root.data;
  const previewParts = layout.previewText === undefined ? [] : splitPlaceholders(layout.previewText);
  const preview = previewParts.length > 0 && complete(previewParts, values) ? oneLine(fill(previewParts, values)) : '';
  return h(
    Html,
    { lang: 'en', dir: 'ltr' },
    h(Head, null, h('title', null, subject)),
    preview ? h(Preview, null, preview) : null,
    h(
      Body,
      {
        style: {
          backgroundColor: layout.backdropColor ?? defaultColors.backdrop,
          fontFamily: layout.fontFamily ? fontStacks[layout.fontFamily] : fontFamily,
          margin: 0,
          padding: '24px 0',
        },
      },
      h(
        Container,
        {
          style: {
            backgroundColor: layout.canvasColor ?? defaultColors.canvas,
            color: layout.textColor ?? defaultColors.text,
            maxWidth: '560px',
            padding: '32px',
            borderRadius: '8px',
          },
        },
        ...blockElements(email, document, layout.childrenIds, values),
      ),
    ),
  );
}

function blockElements(
  email: ReactEmail,
  document: TemplateDocument,
  ids: readonly string[],
  values: Map<string, Value | null>,
): ReactNode[] {
  return ids.map((id) => blockElement(email, document, id, document[id] as TemplateBlock, values));
}

function blockElement(
  email: ReactEmail,
  document: TemplateDocument,
  key: string,
  block: TemplateBlock,
  values: Map<string, Value | null>,
): ReactNode {
  const { h, Heading, Text, Section, Button, Hr } = email;
  switch (block.type) {
    case 'Heading': {
      const parts = splitPlaceholders(block.data.props.text);
      if (!complete(parts, values)) return null;
      const level = block.data.props.level ?? 'h2';
      const style = {
        margin: '0 0 16px',
        fontSize: `${headingSizes[level]}px`,
        lineHeight: 1.3,
        fontWeight: 700,
        textAlign: block.data.style?.textAlign ?? undefined,
        ...builderStyle(block.data.style),
      };
      return h(Heading, { key, as: level, style }, ...inline(email, parts, values));
    }
    case 'Text': {
      const parts = splitPlaceholders(block.data.props.text);
      if (!complete(parts, values)) return null;
      const fontSize = block.data.style?.fontSize ?? 16;
      const style = {
        margin: '0 0 16px',
        fontSize: `${fontSize}px`,
        lineHeight: `${Math.round(fontSize * 1.5)}px`,
        textAlign: block.data.style?.textAlign ?? undefined,
        ...builderStyle(block.data.style),
      };
      return h(Text, { key, style }, ...inline(email, parts, values));
    }
    case 'Code': {
      const parts = splitPlaceholders(block.data.props.text);
      if (!complete(parts, values)) return null;
      const style = {
        margin: '0 0 16px',
        padding: '16px',
        fontFamily: "'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace",
        fontSize: '32px',
        lineHeight: '40px',
        fontWeight: 700,
        letterSpacing: '6px',
        textAlign: block.data.style?.textAlign ?? 'center',
        backgroundColor: '#f4f4f5',
        borderRadius: '6px',
      } as const;
      return h(Text, { key, style }, fill(parts, values));
    }
    case 'Button': {
      const label = splitPlaceholders(block.data.props.text);
      const target = linkOf(block.data.props.url, values);
      if (!complete(label, values) || !target) return null;
      const { props } = block.data;
      const blockStyle = block.data.style;
      const pill = props.buttonStyle === 'pill' ? '64px' : props.buttonStyle === 'rectangle' ? '0' : '6px';
      const style = {
        display: props.fullWidth ? 'block' : 'inline-block',
        padding: '12px 24px',
        borderRadius: pill,
        fontSize: `${blockStyle?.fontSize ?? 16}px`,
        fontWeight: blockStyle?.fontWeight === 'normal' ? 400 : 600,
        ...(blockStyle?.fontFamily ? { fontFamily: fontStacks[blockStyle.fontFamily] } : {}),
        textDecoration: 'none',
        backgroundColor: props.buttonBackgroundColor ?? blockStyle?.backgroundColor ?? defaultColors.button,
        color: props.buttonTextColor ?? blockStyle?.color ?? defaultColors.buttonText,
      };
      const padding = blockStyle?.padding;
      return h(
        Section,
        {
          key,
          style: {
            margin: '8px 0 24px',
            textAlign: blockStyle?.textAlign ?? 'left',
            ...(padding
              ? { padding: `${padding.top}px ${padding.right}px ${padding.bottom}px ${padding.left}px` }
              : {}),
          },
        },
        h(Button, { href: target, style }, fill(label, values)),
      );
    }
    case 'Divider':
      return h(Hr, {
        key,
        style: {
          margin: '24px 0',
          borderColor: block.data.props?.lineColor ?? block.data.style?.color ?? defaultColors.rule,
          ...(block.data.props?.lineHeight ? { borderTopWidth: `${block.data.props.lineHeight}px` } : {}),
        },
      });
    case 'Spacer':
      return h(
        Section,
        { key, style: { height: `${block.data.props.height}px`, lineHeight: `${block.data.props.height}px` } },
        '\u00a0',
      );
    case 'Container':
      return h(
        Section,
        {
          key,
          style: {
            margin: '0 0 16px',
            padding: '16px',
            borderRadius: '6px',
            backgroundColor: block.data.style?.backgroundColor ?? undefined,
            ...(block.data.style?.borderColor ? { border: `1px solid ${block.data.style.borderColor}` } : {}),
            ...(block.data.style?.borderRadius != null ? { borderRadius: `${block.data.style.borderRadius}px` } : {}),
            ...builderStyle({ padding: block.data.style?.padding }),
          },
        },
        ...blockElements(email, document, block.data.props.childrenIds, values),
      );
  }
}

/** Text with its placeholders filled: lines broken at `\n`, link variables as links showing their URL. */
function inline({ h, Link }: ReactEmail, parts: TextPart[], values: Map<string, Value | null>): ReactNode[] {
  // Adjacent text is joined into one string: React would otherwise separate the pieces with `<!-- -->`.
  const nodes: ReactNode[] = [];
  let pending = '';
  const flush = () => {
    if (pending) nodes.push(pending);
    pending = '';
  };
  for (const part of parts) {
    const value = typeof part === 'string' ? { kind: 'text' as const, text: part } : values.get(part.variable);
    if (!value) continue;
    if (value.kind === 'link') {
      flush();
      nodes.push(
        h(Link, { href: value.url, style: { color: defaultColors.button, wordBreak: 'break-all' } }, value.url),
      );
      continue;
    }
    value.text.split('\n').forEach((line, index) => {
      if (index > 0) {
        flush();
        nodes.push(h('br'));
      }
      pending += line;
    });
  }
  flush();
  return nodes;
}

// ---- plain text ----

/**
 * The plain-text part: each block a paragraph, links and codes exactly as
 * given; a button is its label and its URL.
 */
function plainText(document: TemplateDocument, values: Map<string, Value | null>): string {
  const paragraphs: string[] = [];
  const walk = (ids: readonly string[]) => {
    for (const id of ids) {
      const block = document[id] as TemplateBlock;
      switch (block.type) {
        case 'Heading':
        case 'Text':
        case 'Code': {
          const parts = splitPlaceholders(block.data.props.text);
          if (complete(parts, values)) paragraphs.push(fill(parts, values).trim());
          break;
        }
        case 'Button': {
          const label = splitPlaceholders(block.data.props.text);
          const target = linkOf(block.data.props.url, values);
          if (complete(label, values) && target) paragraphs.push(`${fill(label, values)}:\n${target}`);
          break;
        }
        case 'Divider':
          paragraphs.push('---');
          break;
        case 'Spacer':
          break;
        case 'Container':
          walk(block.data.props.childrenIds);
          break;
      }
    }
  };
  walk(document.root.data.childrenIds);
  return `${paragraphs.filter((paragraph) => paragraph !== '').join('\n\n')}\n`;
}
