/**
 * The editor document a template's body is stored as (`content` of
 * wire-protocol §15.8). The official SDK sends an e-mail-builder document: a
 * map of block id → `{type, data}` with a `root` block of type `EmailLayout`
 * whose `data.childrenIds` lists the blocks in order, e.g.
 * `{"schemaVersion": 5, "root": {"type": "EmailLayout", "data": {"childrenIds": []}}}`.
 *
 * We accept that shape and render these blocks: Heading, Text, Button, Code
 * (a one-time code shown large), Divider, Spacer and Container (a box holding
 * blocks of its own). Text may hold `{{ variableName }}` placeholders of the
 * template type's variables. Everything is checked strictly: known block
 * types and fields only, size limits, child ids that exist, each block used
 * exactly once (so no cycles and no orphans), bounded nesting.
 *
 * Rules an admin edit must follow, and why:
 * - A Button's `url` is exactly one placeholder of a link variable
 *   (`{{ passwordResetLink }}`). Arbitrary URLs are refused: these mails carry
 *   sign-in and reset links, and a template that points people elsewhere
 *   (a typo, or a stolen admin key turning every reset mail into phishing)
 *   would be trusted by everyone who gets it. The only links a mail holds are
 *   the ones the flows pass in.
 * - A placeholder that names no variable of the type is refused on save, so
 *   a typo never reaches a user as `{{ usrName }}`.
 * - An empty layout (no children) is accepted; it renders the type's default
 *   body (under the template's own subject), so a mail is never blank.
 */
import { z } from 'zod';
import { type EmailTemplateType, templateVariables } from './template-types.js';

/** Most blocks a document may hold. */
const maxBlocks = 100;
/** Deepest nesting of Containers. */
const maxNesting = 4;
/** Largest document, as JSON text (texts may hold 5000 characters each, but not a hundred of them). */
const maxDocumentBytes = 65_536;

const blockId = /^[A-Za-z0-9_-]{1,64}$/;
const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'must be a colour like #1a2b3c' });
const textAlign = z.enum(['left', 'center', 'right']);
const line = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !/[\r\n]/.test(value), { message: 'must be one line' });
const childrenIds = z.array(z.string().regex(blockId, { message: 'must be a block id' })).max(maxBlocks);

/*
 * Fields of the e-mail builder's documents (what the reference's dashboard
 * saves, and its built-in templates hold): colours and styles that may be
 * null (left to the default), a font family by name, padding.
 */
const color = hexColor.nullable().optional();
const align = textAlign.nullable().optional();
/** The builder's font families, by name (rendered as CSS font stacks). */
export const fontFamilies = [
  'MODERN_SANS',
  'BOOK_SANS',
  'ORGANIC_SANS',
  'GEOMETRIC_SANS',
  'HEAVY_SANS',
  'ROUNDED_SANS',
  'MODERN_SERIF',
  'BOOK_SERIF',
  'MONOSPACE',
] as const;
const fontFamily = z.enum(fontFamilies).nullable().optional();
const fontWeight = z.enum(['bold', 'normal']).nullable().optional();
const side = z.number().int().min(0).max(128);
const padding = z.strictObject({ top: side, bottom: side, right: side, left: side }).nullable().optional();
const fontSize = z.number().int().min(10).max(32).nullable().optional();

const heading = z.strictObject({
  type: z.literal('Heading'),
  data: z.strictObject({
    props: z.strictObject({ text: line(500), level: z.enum(['h1', 'h2', 'h3']).nullable().optional() }),
    style: z
      .strictObject({ textAlign: align, color, backgroundColor: color, fontFamily, fontWeight, padding })
      .nullable()
      .optional(),
  }),
});

const text = z.strictObject({
  type: z.literal('Text'),
  data: z.strictObject({
    props: z.strictObject({ text: z.string().max(5000) }),
    style: z
      .strictObject({ textAlign: align, color, backgroundColor: color, fontSize, fontFamily, fontWeight, padding })
      .nullable()
      .optional(),
  }),
});

const button = z.strictObject({
  type: z.literal('Button'),
  data: z.strictObject({
    props: z.strictObject({
      text: line(200).min(1),
      url: z.string().max(200),
      buttonBackgroundColor: color,
      buttonTextColor: color,
      buttonStyle: z.enum(['rectangle', 'pill', 'rounded']).nullable().optional(),
      size: z.enum(['x-small', 'small', 'medium', 'large']).nullable().optional(),
      fullWidth: z.boolean().nullable().optional(),
    }),
    /** `backgroundColor` and `color` are the button's own where `buttonBackgroundColor` and `buttonTextColor` are unset. */
    style: z
      .strictObject({ textAlign: align, backgroundColor: color, color, fontSize, fontFamily, fontWeight, padding })
      .nullable()
      .optional(),
  }),
});

const code = z.strictObject({
  type: z.literal('Code'),
  data: z.strictObject({
    props: z.strictObject({ text: line(200) }),
    style: z.strictObject({ textAlign: textAlign.optional() }).optional(),
  }),
});

const divider = z.strictObject({
  type: z.literal('Divider'),
  data: z.strictObject({
    props: z
      .strictObject({ lineColor: color, lineHeight: z.number().int().min(1).max(16).nullable().optional() })
      .nullable()
      .optional(),
    /** `color` is the line's where `props.lineColor` is unset. */
    style: z.strictObject({ color, backgroundColor: color, padding }).nullable().optional(),
  }),
});

const spacer = z.strictObject({
  type: z.literal('Spacer'),
  data: z.strictObject({ props: z.strictObject({ height: z.number().int().min(4).max(128) }) }),
});

const container = z.strictObject({
  type: z.literal('Container'),
  data: z.strictObject({
    props: z.strictObject({ childrenIds }),
    style: z
      .strictObject({
        backgroundColor: color,
        borderColor: color,
        borderRadius: z.number().int().min(0).max(64).nullable().optional(),
        padding,
      })
      .nullable()
      .optional(),
  }),
});

const block = z.discriminatedUnion('type', [heading, text, button, code, divider, spacer, container]);

const layout = z.strictObject({
  type: z.literal('EmailLayout'),
  data: z.strictObject({
    childrenIds,
    /** The line mail clients show after the subject in the inbox; may hold placeholders. */
    previewText: line(200).optional(),
    backdropColor: color,
    canvasColor: color,
    textColor: color,
    fontFamily,
  }),
});

/** One block of a document. */
export type TemplateBlock = z.infer<typeof block>;

/** A template document: `root` (the layout), an optional `schemaVersion`, and the blocks by id. */
export interface TemplateDocument {
  schemaVersion?: number;
  root: z.infer<typeof layout>;
  [blockId: string]: TemplateBlock | z.infer<typeof layout> | number | undefined;
}

/**
 * The document's structure (any template type): known blocks and fields,
 * limits, and a tree whose every child exists and is used once.
 *
 * @example
 * templateDocumentSchema.parse({ schemaVersion: 5, root: { type: 'EmailLayout', data: { childrenIds: [] } } });
 */
export const templateDocumentSchema = z
  .object({ schemaVersion: z.number().int().min(0).max(1000).optional(), root: layout })
  .catchall(block)
  .superRefine((document, context) => {
    if (Buffer.byteLength(JSON.stringify(document)) > maxDocumentBytes) {
      context.addIssue({ code: 'custom', message: `must be at most ${maxDocumentBytes} bytes as JSON` });
      return;
    }
    const ids = Object.keys(document).filter((key) => key !== 'root' && key !== 'schemaVersion');
    if (ids.length > maxBlocks) {
      context.addIssue({ code: 'custom', message: `must hold at most ${maxBlocks} blocks` });
      return;
    }
    for (const id of ids) {
      if (!blockId.test(id))
        context.addIssue({ code: 'custom', path: [id], message: 'block ids are 1-64 of A-Z a-z 0-9 _ -' });
    }
    const used = new Set<string>();
    const walk = (children: readonly string[], path: (string | number)[], depth: number) => {
      children.forEach((child, index) => {
        const at = [...path, index];
        if (child === 'root' || child === 'schemaVersion' || !Object.hasOwn(document, child)) {
          context.addIssue({ code: 'custom', path: at, message: `names no block: "${child}"` });
          return;
        }
        if (used.has(child)) {
          context.addIssue({ code: 'custom', path: at, message: `block "${child}" is used twice (or inside itself)` });
          return;
        }
        used.add(child);
        const found = document[child] as TemplateBlock;
        if (found.type !== 'Container') return;
        if (depth >= maxNesting) {
          context.addIssue({ code: 'custom', path: at, message: `containers nest at most ${maxNesting} deep` });
          return;
        }
        walk(found.data.props.childrenIds, [child, 'data', 'props', 'childrenIds'], depth + 1);
      });
    };
    walk(document.root.data.childrenIds, ['root', 'data', 'childrenIds'], 0);
    for (const id of ids) {
      if (!used.has(id)) context.addIssue({ code: 'custom', path: [id], message: 'is in no layout or container' });
    }
  })
  .meta({
    id: 'EmailTemplateDocument',
    description:
      'An e-mail-builder document: `root` (type EmailLayout, `data.childrenIds` in order) and blocks by id ' +
      '(Heading, Text, Button, Code, Divider, Spacer, Container). Text may hold `{{ variableName }}` placeholders; ' +
      "a Button's url is a placeholder of a link variable. An empty layout renders the default body.",
  });

/** `{{ name }}`, spaces inside the braces optional. */
const placeholder = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g;

/** A piece of template text: literal text, or a variable to put in. */
export type TextPart = string | { variable: string };

/**
 * Splits `text` into literal pieces and placeholders.
 *
 * @example
 * splitPlaceholders('Hi {{ userDisplayName }}!'); // ['Hi ', { variable: 'userDisplayName' }, '!']
 */
export function splitPlaceholders(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(placeholder)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push({ variable: match[1]! });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** The blocks of `document` in reading order (Containers before their children), each with its id. */
function blocksInOrder(document: TemplateDocument): { id: string; block: TemplateBlock }[] {
  const out: { id: string; block: TemplateBlock }[] = [];
  const walk = (children: readonly string[]) => {
    for (const id of children) {
      const found = document[id] as TemplateBlock;
      out.push({ id, block: found });
      if (found.type === 'Container') walk(found.data.props.childrenIds);
    }
  };
  walk(document.root.data.childrenIds);
  return out;
}

/**
 * What is wrong with a subject and document for `type`, one line per
 * problem, or an empty list: placeholders that name no variable of the type,
 * broken braces, and button URLs that are not a link variable's placeholder.
 * `document` has already passed `templateDocumentSchema`.
 *
 * @example
 * templateProblems('password_reset', 'Hi {{ nme }}', defaultTemplate('password_reset').content);
 * // ['body.subject: {{ nme }} is not a variable of password_reset templates (known: projectDisplayName, …)']
 */
export function templateProblems(
  type: EmailTemplateType,
  subject: string | undefined,
  document: TemplateDocument | undefined,
): string[] {
  const { text: textNames, links } = templateVariables[type];
  const known = [...textNames, ...links];
  const problems: string[] = [];
  const checkText = (value: string, where: string) => {
    for (const part of splitPlaceholders(value)) {
      if (typeof part === 'string') {
        if (part.includes('{{') || part.includes('}}')) {
          problems.push(`${where}: has "{{" or "}}" outside a placeholder like {{ ${known[0]} }}`);
        }
      } else if (!known.includes(part.variable)) {
        problems.push(
          `${where}: {{ ${part.variable} }} is not a variable of ${type} templates (known: ${known.join(', ')})`,
        );
      }
    }
  };
  if (subject !== undefined) checkText(subject, 'body.subject');
  if (document) {
    if (document.root.data.previewText !== undefined) {
      checkText(document.root.data.previewText, 'body.content.root.data.previewText');
    }
    for (const { id, block } of blocksInOrder(document)) {
      const where = `body.content.${id}.data.props`;
      if (block.type === 'Heading' || block.type === 'Text' || block.type === 'Code' || block.type === 'Button') {
        checkText(block.data.props.text, `${where}.text`);
      }
      if (block.type === 'Button') {
        const parts = splitPlaceholders(block.data.props.url.trim());
        const only = parts.length === 1 ? parts[0] : undefined;
        if (typeof only !== 'object' || !links.includes(only.variable)) {
          problems.push(
            `${where}.url: must be a link placeholder: ${links.map((name) => `{{ ${name} }}`).join(' or ')}`,
          );
        }
      }
    }
  }
  return problems;
}
