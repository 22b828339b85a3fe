/**
 * Document 3's provider files (no authentication): the stable and mobile manifests and
 * one template per platform action, at `{actionType}.json`. The `.json` is part of the
 * route's path, so a name without it is an unknown path (404 NOT_FOUND); a platform or
 * action nobody defined is a 404 of its own (provider-files.ts), which is why the
 * templates' path is documented but not parsed.
 */
import { sendRendered } from '../envelope.js';
import { failure, standardAnswers, success } from '../openapi/answers.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { providerManifest, providerTemplate, providerTemplatePath } from '../schemas/provider-schemas.js';
import { PROVIDER_NOT_FOUND, type ProviderFiles, TEMPLATE_NOT_FOUND } from './provider-files.js';

export interface ProviderDependencies {
  files: ProviderFiles;
}

type ProviderSet = 'stable' | 'mobile';

export function providerOperations(): Operation<ProviderDependencies>[] {
  // The mobile manifest before the stable template, which would take `mobile` for a platform and `providers` for an action.
  return [manifestOperation('stable'), manifestOperation('mobile'), templateOperation('mobile'), templateOperation('stable')];
}

const tags = ['Market'];

const NOT_FOUND = failure(404, [
  { code: PROVIDER_NOT_FOUND, when: 'No platform has that name (the manifest lists every one)' },
  { code: TEMPLATE_NOT_FOUND, when: 'The platform has no action of that type' },
]);

const under = (set: ProviderSet) => (set === 'stable' ? '/providers' : '/providers/mobile');

function manifestOperation(set: ProviderSet) {
  return defineOperation({
    method: 'get',
    path: `${under(set)}/providers.json`,
    operationId: set === 'stable' ? 'getProviderManifest' : 'getMobileProviderManifest',
    tags,
    summary: set === 'stable' ? 'The stable provider manifest' : 'The mobile provider manifest',
    description:
      'Every platform the attestation service reads, with its payment and identity actions and the path of each one’s template in this set. ' +
      (set === 'stable' ? 'For a desktop browser extension.' : 'For an app’s in-app webview: the same actions, signed in with a mobile user agent.'),
    guard: 'none',
    answers: standardAnswers({ '200': success(200, providerManifest, 'The manifest') }),
    handle: (deps: ProviderDependencies) => (ctx) => sendRendered(ctx, deps.files.manifest(set)),
  });
}

function templateOperation(set: ProviderSet) {
  return defineOperation({
    method: 'get',
    path: `${under(set)}/:platform/:actionType.json`,
    operationId: set === 'stable' ? 'getProviderTemplate' : 'getMobileProviderTemplate',
    tags,
    summary: set === 'stable' ? 'A stable provider template' : 'A mobile provider template',
    description:
      'How a client signs in to the platform, which session material it captures and seals, the public params it sends, and the request the attestation service makes with them. ' +
      'Generated from the definitions the attestation service’s adapters are built from, so they always agree. A name without `.json` is an unknown path (404 `NOT_FOUND`).',
    guard: 'none',
    documented: { path: providerTemplatePath },
    answers: standardAnswers({ '200': success(200, providerTemplate, 'The template'), '404': NOT_FOUND }),
    handle: (deps: ProviderDependencies) => (ctx) => sendRendered(ctx, deps.files.template(set, ctx.params.platform!, ctx.params.actionType!)),
  });
}
