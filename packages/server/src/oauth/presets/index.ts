/** The provider presets (wire-protocol §15.6), one file each: endpoints, scopes and profile readers. */
import type { OAuthProviderPreset } from '@latchkey/protocol';
import { apple } from './apple.js';
import { bitbucket } from './bitbucket.js';
import { discord } from './discord.js';
import { facebook } from './facebook.js';
import { github } from './github.js';
import { gitlab } from './gitlab.js';
import { google } from './google.js';
import { linkedin } from './linkedin.js';
import { microsoft } from './microsoft.js';
import type { PresetOf } from './preset.js';
import { spotify } from './spotify.js';
import { x } from './x.js';

/** Every preset by its provider id: exactly the protocol's `oauthProviderPresets`. */
export const presets: Record<string, PresetOf> = {
  github,
  google,
  microsoft,
  spotify,
  facebook,
  discord,
  gitlab,
  bitbucket,
  linkedin,
  apple,
  x,
} satisfies Record<OAuthProviderPreset, PresetOf>;
