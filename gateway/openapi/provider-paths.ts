/** Document 3's provider files: two manifests and the templates they list (docs/providers.md). */
import { providerManifest, providerTemplate, providerTemplatePath } from '../schemas/provider-schemas.js';
import { PROVIDER_NOT_FOUND, TEMPLATE_NOT_FOUND } from '../providers/provider-files.js';
import { failure, standardAnswers, success } from './answers.js';
import { NO_AUTH } from './security.js';

const tags = ['Market'];

const NOT_FOUND = failure(404, [
  { code: PROVIDER_NOT_FOUND, when: 'No platform has that name (the manifest lists every one)' },
  { code: TEMPLATE_NOT_FOUND, when: 'The platform has no action of that type' },
]);

function manifest(set: 'stable' | 'mobile') {
  return {
    get: {
      operationId: set === 'stable' ? 'getProviderManifest' : 'getMobileProviderManifest',
      tags,
      summary: set === 'stable' ? 'The stable provider manifest' : 'The mobile provider manifest',
      description:
        'Every platform the attestation service reads, with its payment and identity actions and the path of each one’s template in this set. ' +
        (set === 'stable' ? 'For a desktop browser extension.' : 'For an app’s in-app webview: the same actions, signed in with a mobile user agent.'),
      security: NO_AUTH,
      responses: standardAnswers({ '200': success(200, providerManifest, 'The manifest') }),
    },
  };
}

function template(set: 'stable' | 'mobile') {
  return {
    get: {
      operationId: set === 'stable' ? 'getProviderTemplate' : 'getMobileProviderTemplate',
      tags,
      summary: set === 'stable' ? 'A stable provider template' : 'A mobile provider template',
      description:
        'How a client signs in to the platform, which session material it captures and seals, the public params it sends, and the request the attestation service makes with them. ' +
        'Generated from the definitions the attestation service’s adapters are built from, so they always agree. A name without `.json` is an unknown path (404 `NOT_FOUND`).',
      security: NO_AUTH,
      requestParams: { path: providerTemplatePath },
      responses: standardAnswers({ '200': success(200, providerTemplate, 'The template'), '404': NOT_FOUND }),
    },
  };
}

export function providerPaths() {
  return {
    '/providers/providers.json': manifest('stable'),
    '/providers/mobile/providers.json': manifest('mobile'),
    '/providers/{platform}/{actionType}.json': template('stable'),
    '/providers/mobile/{platform}/{actionType}.json': template('mobile'),
  };
}
