import { describe, expect, it } from 'vitest';
import { recordedAnswers, withField, without } from '../test-support/answers.js';
import { decodeClientProject } from './project-decoder.js';

const { project } = recordedAnswers;

describe('decodeClientProject', () => {
  it('decodes the service’s answer to GET /projects/current', () => {
    expect(decodeClientProject(project)).toEqual({
      id: project.id,
      displayName: 'Test project',
      config: {
        signUpEnabled: true,
        credentialEnabled: true,
        magicLinkEnabled: false,
        passkeyEnabled: false,
        clientTeamCreationEnabled: false,
        clientUserDeletionEnabled: false,
        oauthProviders: [],
      },
    });
  });

  it('keeps only the ids of the enabled OAuth providers', () => {
    const config = withField(project.config, 'enabled_oauth_providers', [{ id: 'google' }, { id: 'github', x: 1 }]);
    expect(decodeClientProject(withField(project, 'config', config)).config.oauthProviders).toEqual([
      { id: 'google' },
      { id: 'github' },
    ]);
  });

  it.each(Object.keys(project))('refuses an answer without %s', (key) => {
    expect(() => decodeClientProject(without(project, key))).toThrow(`${key} is missing`);
  });

  it.each(Object.keys(project.config))('refuses a config without %s, naming config.%s', (key) => {
    expect(() => decodeClientProject(withField(project, 'config', without(project.config, key)))).toThrow(
      `config.${key} is missing`,
    );
  });

  it('refuses a config that is not an object, and provider ids that are not strings', () => {
    expect(() => decodeClientProject(withField(project, 'config', null))).toThrow('config must be a JSON object');
    const config = withField(project.config, 'enabled_oauth_providers', [{ id: 3 }]);
    expect(() => decodeClientProject(withField(project, 'config', config))).toThrow(
      'config.enabled_oauth_providers[0].id must be a string',
    );
  });
});
