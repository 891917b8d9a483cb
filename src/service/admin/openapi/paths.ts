/**
 * The operations: the routes of ../app.ts with the filters of ../endpoints.ts. Statuses follow
 * the order ../auth.ts checks in: 401 (key), 429 (rate), 403 (site's plan), then the route's
 * own scope check (404), its parameters (400) and its answer.
 */
import { MEMBER_STATUSES, MEMBERSHIP_STATUSES, PLAN_STATUSES, PLAN_TYPES, type Scope } from '../../../contract/admin';
import { LISTED_PLAN_STATUSES } from '../endpoints';
import {
  componentRef,
  enumParameter,
  idParameter,
  json,
  pagingParameters,
  rangeParameters,
  responseHeaders,
  stringParameter,
  type OpenApiObject,
} from './http';
import { schemaRef, type Schema } from './schemas';

interface OperationSpec {
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  /** The scope the key needs; without one any valid key will do (and there is no scope 404). */
  scope?: Scope;
  parameters?: OpenApiObject[];
  /** A list endpoint: cursor paging, `X-Has-More-Items-After`/`X-Next-Cursor`, and 400 for bad input. */
  list?: boolean;
  /** Answers 404 for a resource that does not exist, even with the scope. */
  notFound?: boolean;
  ok: { description: string; schema: Schema; headers?: Record<string, string> };
}

function operation(spec: OperationSpec): OpenApiObject {
  const scopeText = spec.scope
    ? `Needs the scope \`${spec.scope}\`; a key without it is answered 404 \`notFound\`.`
    : 'Needs no scope: any valid key will do.';
  const okHeaders = {
    ...(spec.list && { 'X-Has-More-Items-After': 'XHasMoreItemsAfter', 'X-Next-Cursor': 'XNextCursor' }),
    ...spec.ok.headers,
  };
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: `${spec.description}\n\n${scopeText}`,
    tags: [spec.tag],
    ...(spec.scope && { 'x-required-scope': spec.scope }),
    ...((spec.list || spec.parameters) && {
      parameters: [...(spec.list ? pagingParameters : []), ...(spec.parameters ?? [])],
    }),
    responses: {
      '200': { description: spec.ok.description, headers: responseHeaders(okHeaders), content: json(spec.ok.schema) },
      ...(spec.list && { '400': componentRef('responses', 'BadRequest') }),
      '401': componentRef('responses', 'Unauthorized'),
      '403': componentRef('responses', 'Forbidden'),
      ...((spec.scope || spec.notFound) && { '404': componentRef('responses', 'NotFound') }),
      // Another method on this path, once the key has passed the checks above.
      '405': componentRef('responses', 'MethodNotAllowed'),
      '429': componentRef('responses', 'TooManyRequests'),
      '500': componentRef('responses', 'InternalError'),
    },
  };
}

const arrayOf = (name: string): Schema => ({ type: 'array', items: schemaRef(name) });
const ordered = 'Ordered by id, ascending.';

export const paths: Record<string, Record<string, OpenApiObject>> = {
  '/sites': {
    get: operation({
      operationId: 'listSites',
      summary: 'The site of the key',
      description: 'The site the API key belongs to, as a one-element array (so never more to page through: ' +
        '`X-Has-More-Items-After` is always false). Query parameters and paging headers are ignored.',
      tag: 'Sites',
      ok: {
        description: 'The key\'s site.',
        schema: { type: 'array', items: schemaRef('Site'), minItems: 1, maxItems: 1 },
        headers: { 'X-Total-Count': 'XTotalCount', 'X-Has-More-Items-After': 'XHasMoreItemsAfter' },
      },
    }),
  },
  '/key': {
    get: operation({
      operationId: 'getKey',
      summary: 'The key of the request',
      description: 'The API key the request carries: its id (which owner actions\' member events name), its scopes and its expiry. ' +
        'A client reads it to offer only what the key may do.',
      tag: 'Sites',
      ok: { description: 'The key.', schema: schemaRef('ApiKey') },
    }),
  },
  '/plans': {
    get: operation({
      operationId: 'listPlans',
      summary: 'List plans',
      description: `The site's live plans: by default those ${LISTED_PLAN_STATUSES.map((s) => `\`${s}\``).join(' and ')}. ` +
        `Archived plans are never listed (read one with GET /plans/{id}). ${ordered}`,
      tag: 'Plans',
      scope: 'read.plans',
      list: true,
      parameters: [
        enumParameter('type', PLAN_TYPES, 'Only plans of this type.'),
        enumParameter(
          'status',
          PLAN_STATUSES.filter((s) => s !== 'archived'),
          'Only plans in this status instead of the default (enabled and disabled). `archived` answers 400 `invalidParameter`.',
        ),
      ],
      ok: { description: 'A page of plans.', schema: arrayOf('Plan'), headers: { 'X-Total-Count': 'XTotalCount' } },
    }),
  },
  '/plans/{id}': {
    get: operation({
      operationId: 'getPlan',
      summary: 'Read one plan',
      description: 'One plan in any status, archived and deleted ones included. An id that is not a positive integer ' +
        'written as digits alone (`0372`, `372.0` and `+372` are not plan 372) is simply not found (404), never a 400.',
      tag: 'Plans',
      scope: 'read.plans',
      notFound: true,
      parameters: [{ name: 'id', in: 'path', required: true, description: 'The plan id.', schema: { type: 'integer', minimum: 1 } }],
      ok: { description: 'The plan.', schema: schemaRef('Plan') },
    }),
  },
  '/members': {
    get: operation({
      operationId: 'listMembers',
      summary: 'List members',
      description: `The site's members. ${ordered}`,
      tag: 'Members',
      scope: 'read.members',
      list: true,
      parameters: [
        stringParameter('email', 'Only the member with this e-mail address, in any letter case.', 320),
        stringParameter('firstName', 'Only members with this first name.'),
        stringParameter('lastName', 'Only members with this last name.'),
        enumParameter('status', MEMBER_STATUSES, 'Only members in this status.'),
        ...rangeParameters('created', 'creation time'),
      ],
      ok: { description: 'A page of members.', schema: arrayOf('Member') },
    }),
  },
  '/memberships': {
    get: operation({
      operationId: 'listMemberships',
      summary: 'List memberships',
      description: `The site's memberships. ${ordered}`,
      tag: 'Memberships',
      scope: 'read.memberships',
      list: true,
      parameters: [
        idParameter('planId', 'Only memberships of this plan.'),
        idParameter('memberId', 'Only memberships of this member.'),
        enumParameter('status', MEMBERSHIP_STATUSES, 'Only memberships in this status.'),
        ...rangeParameters('created', 'creation time'),
        ...rangeParameters('billingPeriodEnd', '`billing.billingPeriodEnd`'),
        ...rangeParameters('expires', 'expiry (`expiresOn`)'),
      ],
      ok: { description: 'A page of memberships.', schema: arrayOf('Membership') },
    }),
  },
  '/memberEvents': {
    get: operation({
      operationId: 'listMemberEvents',
      summary: 'List member events',
      description: `Events in members' lives (sign-up, login, conversion, …). ${ordered}`,
      tag: 'Member events',
      scope: 'read.memberEvents',
      list: true,
      parameters: [idParameter('memberId', 'Only events of this member.'), ...rangeParameters('created', 'time')],
      ok: { description: 'A page of member events.', schema: arrayOf('MemberEvent') },
    }),
  },
  '/contentLibrary/views': {
    get: operation({
      operationId: 'listContentViews',
      summary: 'List content library views',
      description: `Members successfully viewing content library items. ${ordered}`,
      tag: 'Content library',
      scope: 'read.contentViews',
      list: true,
      parameters: [
        idParameter('memberId', 'Only views by this member.'),
        idParameter('nodeId', 'Only views of this content item.'),
        ...rangeParameters('viewed', 'view time'),
      ],
      ok: { description: 'A page of content views.', schema: arrayOf('ContentView') },
    }),
  },
  '/invoices': {
    get: operation({
      operationId: 'listInvoices',
      summary: 'List invoices',
      description: `The site's ledger: every charge attempt, failed ones included, with what was refunded of it. ${ordered}`,
      tag: 'Invoices',
      scope: 'read.invoices',
      list: true,
      parameters: [
        idParameter('memberId', 'Only invoices of this member.'),
        enumParameter('status', ['paid', 'failed', 'refunded'], 'Only invoices in this status.'),
        ...rangeParameters('created', 'creation time'),
      ],
      ok: { description: 'A page of invoices.', schema: arrayOf('Invoice') },
    }),
  },
  '/invoices/{id}': {
    get: operation({
      operationId: 'getInvoice',
      summary: 'Read one invoice',
      description: 'One invoice of the ledger. An id that cannot exist (`0372`, `abc`) is not found (404).',
      tag: 'Invoices',
      scope: 'read.invoices',
      notFound: true,
      parameters: [{ name: 'id', in: 'path', required: true, description: 'The invoice id.', schema: { type: 'integer', minimum: 1 } }],
      ok: { description: 'The invoice.', schema: schemaRef('Invoice') },
    }),
  },
  '/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This description',
      description: 'The OpenAPI description of the Admin API. Needs no key.',
      tags: ['Meta'],
      security: [],
      responses: {
        '200': {
          description: 'The OpenAPI 3.1 document.',
          headers: responseHeaders(),
          content: json({ type: 'object', required: ['openapi', 'info', 'paths'] }),
        },
        // Another method, with a key that passed its checks.
        '405': componentRef('responses', 'MethodNotAllowed'),
      },
    },
  },
};
