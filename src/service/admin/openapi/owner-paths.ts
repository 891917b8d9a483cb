/**
 * The owner's actions (issue 32, ../owner-routes.ts) and the ledger they act on. Each action
 * needs a write scope of its own; a key without it is answered 404 as for a read scope. Statuses
 * in the order of the checks: key (401), rate (429), site's plan (403), scope and path id (404),
 * body (400, 413, 415), the resource's state (409), the processor (502).
 */
import type { Scope } from '../../../contract/admin';
import { count, dateTime, id, object } from '../../openapi/schema-helpers';
import { componentRef, json, responseHeaders, type OpenApiObject } from './http';
import { errorBodyWith, schemaRef, type Schema } from './schemas';

interface ActionSpec {
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  scope: Scope;
  method: 'get' | 'post';
  /** The JSON body it takes; none: an empty body (or `{}`). */
  body?: Schema;
  ok: { status: 200 | 201; description: string; schema: Schema; headers?: Record<string, string> };
  /** Answers 409 `conflict` when the resource's state does not allow it. */
  conflict?: string;
  /** Asks the payment processor: 502 `processorError` when it cannot be asked. */
  processor?: boolean;
}

const pathId = (what: string): OpenApiObject => ({
  name: 'id',
  in: 'path',
  required: true,
  description: `The ${what}'s id. One that cannot exist (\`0372\`, \`abc\`) is not found (404).`,
  schema: { type: 'integer', minimum: 1 },
});

const error = (description: string, code: Parameters<typeof errorBodyWith>[0][number]) => ({
  description,
  headers: responseHeaders(),
  content: json(errorBodyWith([code])),
});

function action(spec: ActionSpec, parameters: OpenApiObject[]): OpenApiObject {
  const takesBody = spec.method === 'post';
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: `${spec.description}\n\nNeeds the scope \`${spec.scope}\`; a key without it is answered 404 \`notFound\`. ` +
      'Recorded as a member event whose details name the key (`by: { apiKeyId }`).',
    tags: [spec.tag],
    'x-required-scope': spec.scope,
    parameters,
    ...(takesBody && {
      requestBody: {
        required: false,
        description: spec.body ? 'A JSON object.' : 'None: an empty body, or `{}`.',
        content: json(spec.body ?? object({}, [])),
      },
    }),
    responses: {
      [String(spec.ok.status)]: { description: spec.ok.description, headers: responseHeaders(spec.ok.headers), content: json(spec.ok.schema) },
      ...(takesBody && {
        '400': error('The body is not what the action takes: `invalidBody`, one error per field, `path` naming it.', 'invalidBody'),
        '413': error('The body is over 4 KB.', 'invalidBody'),
        '415': error('A body that is not sent as `application/json`.', 'invalidBody'),
      }),
      '401': componentRef('responses', 'Unauthorized'),
      '403': componentRef('responses', 'Forbidden'),
      '404': componentRef('responses', 'NotFound'),
      '405': componentRef('responses', 'MethodNotAllowed'),
      ...(spec.conflict && { '409': error(spec.conflict, 'conflict') }),
      '429': componentRef('responses', 'TooManyRequests'),
      '500': componentRef('responses', 'InternalError'),
      ...(spec.processor && {
        '502': error('The payment processor could not be asked. Nothing was recorded; asking again is safe.', 'processorError'),
      }),
    },
  };
}

const MemberExport: Schema = {
  type: 'object',
  description: 'Everything the service stores about the member, as the Admin API\'s resources (docs/owner-actions.md).',
  required: ['exportedAt', 'site', 'member', 'signupFields', 'metadata', 'memberships', 'invoices', 'events', 'contentViews', 'mails'],
  properties: {
    exportedAt: dateTime(),
    site: object({ id: id(), subdomain: { type: 'string' }, name: { type: 'string' } }, ['id', 'subdomain', 'name']),
    member: { type: 'object', description: 'The Member, with `profileImageUrl`, `emailConfirmedAt` and `processorCustomerId` when stored.' },
    signupFields: { type: 'array', items: { type: 'object', required: ['fieldId', 'value'] } },
    metadata: { type: 'object' },
    memberships: { type: 'array', items: schemaRef('Membership') },
    invoices: { type: 'array', items: schemaRef('Invoice') },
    paymentMethod: object({ brand: { type: 'string' }, last4: { type: 'string' }, expMonth: count('1-12.'), expYear: count('Four digits.'), savedAt: dateTime() }, ['brand', 'last4', 'expMonth', 'expYear', 'savedAt']),
    events: { type: 'array', items: schemaRef('MemberEvent') },
    contentViews: { type: 'array', items: schemaRef('ContentView') },
    mails: { type: 'array', items: { type: 'object', required: ['kind', 'to', 'subject', 'status', 'createdAt'] } },
  },
  additionalProperties: false,
};

const CancelInput = object(
  { when: { type: 'string', enum: ['now', 'periodEnd'], description: '`now`: access ends at once. `periodEnd`: a running subscription stops renewing and stays active until its period ends.' } },
  ['when'],
);
const CompInput = object(
  {
    memberId: id('The member given the plan.'),
    planId: id('The plan: any the site has not archived or deleted, a disabled one included.'),
    expiresAt: { type: 'string', format: 'date-time', description: 'When it ends; absent: never. In the future.' },
  },
  ['memberId', 'planId'],
);
const RefundInput = object(
  {
    amountCents: { type: 'integer', minimum: 1, description: 'How much to refund, in minor units; absent: all that is left of the invoice.' },
    expectedRefundedCents: {
      type: 'integer',
      minimum: 0,
      description:
        'The invoice\'s `refundedCents` as the caller read it (0 when absent). When given and the ledger says otherwise, the refund is refused (409) and nothing moves: ' +
        'a retry of a partial refund whose answer was lost, or a form read before another refund, cannot refund twice.',
    },
  },
  [],
);

const MEMBER_STATE = 'The member was erased.';

export const ownerPaths: Record<string, Record<string, OpenApiObject>> = {
  '/memberships': {
    post: action(
      {
        operationId: 'compMembership',
        summary: 'Give a member a plan for free',
        description: 'A membership the owner gives (`comp: true`): active from now, until `expiresAt` or for ever, and never charged.',
        tag: 'Owner actions',
        scope: 'memberships:write',
        method: 'post',
        body: CompInput,
        ok: { status: 201, description: 'The membership given.', schema: schemaRef('Membership') },
        conflict: 'The member was erased, the plan is archived or deleted, or the member holds an active membership of the plan.',
      },
      [],
    ),
  },
  '/memberships/{id}/cancel': {
    post: action(
      {
        operationId: 'cancelMembership',
        summary: 'Cancel a membership',
        description: 'Now (status `cancelled` at once), or at its period\'s end (`cancelsOn`). No money moves: refund an invoice for that. Cancelling at the period\'s end again answers the membership as it is.',
        tag: 'Owner actions',
        scope: 'memberships:write',
        method: 'post',
        body: CancelInput,
        ok: { status: 200, description: 'The membership after it.', schema: schemaRef('Membership') },
        conflict: 'The membership is not active, or (`periodEnd`) is not a running subscription.',
      },
      [pathId('membership')],
    ),
  },
  '/invoices/{id}/refund': {
    post: action(
      {
        operationId: 'refundInvoice',
        summary: 'Refund an invoice',
        description: 'Through the site\'s processor, all that is left of the invoice or `amountCents` of it. One refund of an invoice at a time: another under way answers 409.',
        tag: 'Owner actions',
        scope: 'invoices:write',
        method: 'post',
        body: RefundInput,
        ok: { status: 200, description: 'The invoice after it (`refundedCents`; refunded in full: `refunded`).', schema: schemaRef('Invoice') },
        conflict: 'The invoice failed or is refunded in full, another refund of it is under way, its refunded amount is not `expectedRefundedCents`, or the processor refused.',
        processor: true,
      },
      [pathId('invoice')],
    ),
  },
  '/members/{id}/block': {
    post: action(
      {
        operationId: 'blockMember',
        summary: 'Block a member',
        description: 'Status `blocked`: every session of the member ends at once, and they cannot sign in (the widget says so). A blocked member is answered as they are.',
        tag: 'Owner actions',
        scope: 'members:write',
        method: 'post',
        ok: { status: 200, description: 'The member after it.', schema: schemaRef('Member') },
        conflict: MEMBER_STATE,
      },
      [pathId('member')],
    ),
  },
  '/members/{id}/unblock': {
    post: action(
      {
        operationId: 'unblockMember',
        summary: 'Unblock a member',
        description: 'A blocked member becomes `approved` and may sign in again; any other is answered as they are.',
        tag: 'Owner actions',
        scope: 'members:write',
        method: 'post',
        ok: { status: 200, description: 'The member after it.', schema: schemaRef('Member') },
        conflict: MEMBER_STATE,
      },
      [pathId('member')],
    ),
  },
  '/members/{id}/export': {
    get: action(
      {
        operationId: 'exportMember',
        summary: 'Export everything stored about a member',
        description: 'One JSON document, for a person who asks for their data. No secrets (password, session and token hashes are never in it).',
        tag: 'Owner actions',
        scope: 'members:write',
        method: 'get',
        ok: { status: 200, description: 'The member\'s data. HEAD answers the headers only, and records no export.', schema: MemberExport, headers: { 'Content-Disposition': 'ContentDisposition' } },
      },
      [pathId('member')],
    ),
  },
  '/members/{id}/erase': {
    post: action(
      {
        operationId: 'eraseMember',
        summary: 'Erase a member on request',
        description: 'The processor\'s customer is deleted, active memberships are cancelled now, and the member\'s personal data, metadata, sessions, card, content views and mails are deleted; the row stays with status `erased` and an address that is no one\'s, and invoices stay (accounting law) naming no person. Erasing an erased member answers it as it is.',
        tag: 'Owner actions',
        scope: 'members:write',
        method: 'post',
        ok: { status: 200, description: 'The member after it.', schema: schemaRef('Member') },
        processor: true,
      },
      [pathId('member')],
    ),
  },
};
