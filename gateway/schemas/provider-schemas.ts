/**
 * Document 3's provider files: the manifest of a set and one template per platform
 * action, whose shapes document 3 leaves unshown (docs/providers.md says why each field
 * is there). Every value comes from machines/platforms (gateway/providers/provider-files.ts).
 */
import { z } from 'zod';
import { PLATFORMS, PLATFORM_ACTIONS, SESSION_FORMATS, type SessionFormat } from '../../machines/platforms/index.js';
import { PROVIDER_SETS } from '../providers/provider-sets.js';
import { bytes32, currencyCode } from './common.js';

const kind = z
  .enum(['payment', 'identity'])
  .meta({ description: 'payment: a transfer proven through the buyer TEE path; identity: an account registration (POST /identity)' });
const set = z.enum(PROVIDER_SETS).meta({ description: 'stable: a desktop browser extension; mobile: an app’s in-app webview' });
const version = z.string().meta({ description: 'Version of the file format', example: '1.0.0' });
const paymentMethodHash = bytes32.meta({ description: 'keccak256 of the platform id: the payment method a deposit and an attestation name' });
const platform = z.string().meta({ description: 'The platform’s id, as deposits and rails name it', example: 'venmo' });
const displayName = z.string().meta({ description: 'The platform’s name, for people', example: 'Venmo' });
const actionType = z.string().meta({ description: 'The action, as the template’s file is named', example: 'transfer_venmo' });
const currencies = z.array(currencyCode).meta({ description: 'Currencies the platform’s payments are made in, its home currency first' });

/** Path parameters: the names the files are listed under; any other name is a 404. */
export const providerTemplatePath = z.strictObject({
  platform: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/)
    .meta({ description: `The platform’s directory: ${PLATFORMS.map((platform) => platform.id).join(', ')}`, example: 'venmo' }),
  actionType: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/)
    .meta({
      description: `The action type, without .json: ${[...new Set(PLATFORM_ACTIONS.map((entry) => entry.action.type))].join(', ')}`,
      example: 'transfer_venmo',
    }),
});

export const providerManifest = z
  .object({
    version,
    set,
    providers: z
      .array(
        z.object({
          platform,
          displayName,
          paymentMethodHash,
          currencies,
          actions: z
            .array(
              z.object({
                actionType,
                kind,
                template: z.string().meta({ description: 'Path of the action’s template in this set', example: '/providers/venmo/transfer_venmo.json' }),
              }),
            )
            .meta({ description: 'What can be proven on the platform, each with its template' }),
        }),
      )
      .meta({ description: 'Every platform of the set' }),
  })
  .meta({ id: 'ProviderManifest', description: 'Every platform the attestation service reads, with its actions and where their templates are' });

const sessionField = z
  .object({
    name: z.string().meta({ description: 'The key in the session-material object the client seals', example: 'Cookie' }),
    required: z.boolean().meta({ description: 'The material must carry the field' }),
    format: z
      .enum(Object.keys(SESSION_FORMATS) as [SessionFormat, ...SessionFormat[]])
      .meta({ description: 'How the field’s value is written in the material' }),
    description: z.string().meta({ description: 'What the field is, for people' }),
    capture: z
      .object({
        from: z
          .enum(['request-header', 'request-headers', 'request-body'])
          .meta({ description: 'What part of the signed-in page’s request to the platform the value is read from' }),
        header: z.string().nullable().meta({ description: 'The header, for request-header' }),
      })
      .meta({ description: 'Where the client reads the value' }),
    rules: z
      .object({
        description: z.string().meta({ description: 'The rules in words' }),
        minLength: z.number().int().nullable().meta({ description: 'The fewest characters; null for no minimum' }),
        maxLength: z.number().int().nullable().meta({ description: 'The most characters; null for no maximum' }),
        pattern: z.string().nullable().meta({ description: 'A regular expression the whole value matches' }),
        headerNamePattern: z.string().nullable().meta({ description: 'For an object of headers: what each name matches, in lower case' }),
      })
      .meta({ description: 'What the attestation service accepts: material breaking them is refused INVALID_SESSION_MATERIAL' }),
  })
  .meta({ id: 'ProviderSessionField', description: 'One field of the session material the client captures and seals' });

const param = z
  .object({
    name: z.string().meta({ description: 'The param’s name in the proof’s params', example: 'PAYMENT_ID' }),
    source: z.enum(['payment', 'account']).meta({ description: 'payment: the payment the buyer sent; account: the signed-in account’s own id' }),
    description: z.string().meta({ description: 'What the param is, for people' }),
    pattern: z.string().meta({ description: 'A regular expression the whole value matches' }),
  })
  .meta({ id: 'ProviderParam', description: 'A public param sent beside the sealed material' });

const platformRequest = z
  .object({
    method: z.enum(['GET', 'POST']).meta({ description: 'The HTTP method' }),
    url: z.string().meta({ description: '{NAME} is the public param NAME, percent-encoded', example: 'https://account.venmo.com/api/stories/{PAYMENT_ID}' }),
    headers: z
      .array(
        z.object({
          name: z.string().meta({ description: 'The header’s name' }),
          sessionField: z.string().nullable().meta({ description: 'The session field whose value the header carries' }),
          value: z.string().nullable().meta({ description: 'A fixed value, where no session field is carried' }),
        }),
      )
      .meta({ description: 'The headers sent' }),
    headersFromSessionField: z.string().nullable().meta({ description: 'A session field of more headers, sent before the named ones' }),
    body: z
      .discriminatedUnion('type', [
        z.object({
          type: z.literal('form').meta({ description: 'A form body' }),
          fields: z.record(z.string(), z.string()).meta({ description: 'application/x-www-form-urlencoded; {NAME} is a public param' }),
        }),
        z.object({
          type: z.literal('json').meta({ description: 'A JSON body' }),
          sessionField: z.string().meta({ description: 'The session field sent as the JSON body' }),
        }),
      ])
      .nullable()
      .meta({ description: 'The body sent; null for none' }),
  })
  .meta({
    id: 'ProviderPlatformRequest',
    description: 'A request the attestation service makes to the platform, inside the enclave, with the session material and params',
  });

export const providerTemplate = z
  .object({
    version,
    set,
    platform,
    displayName,
    actionType,
    kind,
    paymentMethodHash,
    currencies,
    login: z
      .object({
        url: z.string().meta({ description: 'Where the user signs in', example: 'https://id.venmo.com/signin' }),
        capture: z.enum(['browser-extension', 'webview']).meta({ description: 'How the client watches the signed-in page’s requests' }),
        userAgent: z.string().nullable().meta({ description: 'The user agent the page must be opened with; null for the browser’s own' }),
      })
      .meta({ description: 'Where and how the user signs in to the platform' }),
    session: z
      .object({
        captureUrlPrefix: z.string().meta({
          description: 'The signed-in page’s request whose URL starts with this carries the session material',
          example: 'https://account.venmo.com/api/stories/',
        }),
        fields: z.array(sessionField).meta({ description: 'The fields of the session material' }),
      })
      .meta({ description: 'Which request of the signed-in page carries the session, and what of it to capture' }),
    params: z.array(param).meta({ description: 'The public params sent beside the sealed material, exactly these' }),
    request: platformRequest,
    accountRequest: platformRequest
      .nullable()
      .meta({ description: 'How the service reads the session’s own account, where the platform’s payment reads show other people’s payments (Venmo)' }),
    attestation: z
      .object({
        method: z.literal('POST').meta({ description: 'The HTTP method' }),
        path: z.string().meta({ description: 'Under the attestation service’s URL', example: '/buyer/verify/venmo/transfer_venmo' }),
        sealPurpose: kind.meta({ description: 'The purpose the sealed material’s protected header names' }),
      })
      .meta({ description: 'Where the client sends the sealed material and params' }),
  })
  .meta({ id: 'ProviderTemplate', description: 'How a client captures one platform action’s session and what it sends the attestation service' });
