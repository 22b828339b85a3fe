/**
 * Document 3's provider manifests and templates, generated from the platform
 * definitions the attestation service's adapters are built from (machines/platforms),
 * so a template cannot tell a client to capture or send anything the enclave would
 * refuse. Built and checked through their schemas once, when the gateway starts: they
 * change only with the code.
 */
import { idHash } from '../../machines/id-hash.js';
import {
  PLATFORMS,
  PARAM_RULE,
  SESSION_FORMATS,
  actionsOf,
  platformAction,
  platformById,
  type PlatformAction,
  type PlatformDefinition,
  type RequestTemplate,
  type SessionField,
} from '../../machines/platforms/index.js';
import { ApiError, rendered, type Rendered } from '../envelope.js';
import { providerManifest, providerTemplate } from '../schemas/provider-schemas.js';
import { PROVIDER_FILES_VERSION, PROVIDER_SET_RULES, PROVIDER_SETS, type ProviderSet } from './provider-sets.js';

export const PROVIDER_NOT_FOUND = 'PROVIDER_NOT_FOUND';
export const TEMPLATE_NOT_FOUND = 'TEMPLATE_NOT_FOUND';

export function templatePath(set: ProviderSet, platform: string, actionType: string): string {
  return `${PROVIDER_SET_RULES[set].basePath}/${platform}/${actionType}.json`;
}

export function manifestOf(set: ProviderSet) {
  return {
    version: PROVIDER_FILES_VERSION,
    set,
    providers: PLATFORMS.map((platform) => ({
      platform: platform.id,
      displayName: platform.displayName,
      paymentMethodHash: idHash(platform.id),
      currencies: [...platform.currencies],
      actions: actionsOf(platform).map(({ kind, action }) => ({ actionType: action.type, kind, template: templatePath(set, platform.id, action.type) })),
    })),
  };
}

function requestOf(platform: PlatformDefinition, request: RequestTemplate) {
  const body = request.body;
  return {
    method: request.method,
    url: `${platform.apiBaseUrl}${request.path}`,
    headers: request.headers.map((header) => ({
      name: header.name,
      sessionField: 'session' in header ? header.session : null,
      value: 'value' in header ? header.value : null,
    })),
    headersFromSessionField: request.headersFrom ?? null,
    body: body === undefined ? null : 'form' in body ? { type: 'form' as const, fields: { ...body.form } } : { type: 'json' as const, sessionField: body.json },
  };
}

function sessionFieldOf(field: SessionField) {
  const rules = SESSION_FORMATS[field.format];
  return {
    name: field.name,
    required: !field.optional,
    format: field.format,
    description: field.description,
    capture: { from: field.capture.from, header: 'header' in field.capture ? field.capture.header : null },
    rules: {
      description: rules.description,
      minLength: rules.minLength ?? null,
      maxLength: rules.maxLength ?? null,
      pattern: rules.pattern ?? null,
      headerNamePattern: rules.headerNamePattern ?? null,
    },
  };
}

/** The request's URL up to its first param or query: where the page's own request for the same record goes. */
function captureUrlPrefix(platform: PlatformDefinition, request: RequestTemplate): string {
  return `${platform.apiBaseUrl}${request.path.split(/[{?]/)[0]}`;
}

export function templateOf(set: ProviderSet, { platform, kind, action }: PlatformAction) {
  const rules = PROVIDER_SET_RULES[set];
  return {
    version: PROVIDER_FILES_VERSION,
    set,
    platform: platform.id,
    displayName: platform.displayName,
    actionType: action.type,
    kind,
    paymentMethodHash: idHash(platform.id),
    currencies: [...platform.currencies],
    login: { url: platform.loginUrl, capture: rules.capture, userAgent: rules.userAgent },
    session: { captureUrlPrefix: captureUrlPrefix(platform, action.request), fields: action.session.map(sessionFieldOf) },
    params: action.params.map((param) => ({ name: param.name, source: param.source, description: param.description, pattern: PARAM_RULE.pattern })),
    request: requestOf(platform, action.request),
    accountRequest: action.accountRequest ? requestOf(platform, action.accountRequest) : null,
    attestation: {
      method: 'POST' as const,
      // Identity registration names the platform and action in its body (document 3).
      path: kind === 'payment' ? `/buyer/verify/${platform.id}/${action.type}` : '/identity',
      sealPurpose: kind,
    },
  };
}

/** Every file of both sets, rendered once. */
export class ProviderFiles {
  readonly #manifests = new Map<ProviderSet, Rendered>();
  readonly #templates = new Map<string, Rendered>();

  constructor() {
    for (const set of PROVIDER_SETS) {
      this.#manifests.set(set, rendered(200, 'Provider manifest', providerManifest, manifestOf(set)));
      for (const platform of PLATFORMS) {
        for (const entry of actionsOf(platform)) {
          this.#templates.set(templatePath(set, platform.id, entry.action.type), rendered(200, 'Provider template', providerTemplate, templateOf(set, entry)));
        }
      }
    }
  }

  manifest(set: ProviderSet): Rendered {
    return this.#manifests.get(set)!;
  }

  /** The template of `platform`'s `actionType`, or a 404 saying which of the two is unknown. */
  template(set: ProviderSet, platform: string, actionType: string): Rendered {
    if (!platformById(platform)) throw new ApiError(404, 'No provider for that platform', PROVIDER_NOT_FOUND);
    if (!platformAction(platform, actionType)) throw new ApiError(404, 'The platform has no template for that action type', TEMPLATE_NOT_FOUND);
    return this.#templates.get(templatePath(set, platform, actionType))!;
  }
}
