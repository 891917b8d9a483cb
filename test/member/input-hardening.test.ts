/**
 * What the member API refuses that a careless reading would let through (docs/member-api.md,
 * "What is refused"): control characters and lone surrogates in names, text fields and e-mail
 * addresses; numbers JSON cannot carry back (1e999 reads as Infinity and would be stored as
 * null); and ids in any spelling but the canonical one (372.0, +372, 0x174, 0372 are not 372).
 */
import { expect, test } from 'vitest';
import type { ConversionDetail, MemberInfo } from '../../src/contract/member';
import { ADA, BASE, expectError, forEachStore, GRACE, jsonOf, testCard, validSignUp, type MemberCtx } from './support';

/** C0 but tab, LF and CR; DEL; C1: refused everywhere, textareas included. */
const CONTROLS = ['\u0000', '\u0001', '\u0007', '\b', '\v', '\f', '\u001b', '\u001f', '\u007f', '\u0080', '\u0085', '\u009b', '\u009f'];
/** Tab and line breaks: refused in one-line text, kept in a textarea (a lone CR is not a line break). */
const LINE_BREAKS = ['\t', '\n', '\r\n', '\r'];
/** Half of a UTF-16 pair on its own: not Unicode text (JSON "\ud800"). */
const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff'];

const ME = `${BASE}/me`;
const GOOD_CARD = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/30', cardCvc: '123' };
const show = (s: string) => JSON.stringify(s);

async function memberCount(ctx: MemberCtx): Promise<number> {
  return (await ctx.store.listMembers(ctx.demo.site.id, {}, { limit: 100 })).items.length;
}

/** A 400 whose errors are all `invalidField` and name exactly `paths`, each saying why. */
async function expectRefused(res: Response, paths: string[], why: RegExp = /control characters|Unicode/): Promise<void> {
  const body = await expectError(res, 400, 'invalidField');
  expect(body.errors.map((e) => e.code)).toEqual(body.errors.map(() => 'invalidField'));
  expect(body.errors.map((e) => e.path).sort()).toEqual([...paths].sort());
  for (const e of body.errors) expect(e.message).toMatch(why);
}

forEachStore((fresh) => {
  // ------------------------------------------------------------------ control characters

  test('sign-up refuses a control character or a lone surrogate in firstName, lastName or a text field, and stores nothing', async () => {
    const ctx = await fresh();
    const company = String(ctx.demo.fieldIds.company!);
    const before = await memberCount(ctx);
    for (const bad of [...CONTROLS, ...LINE_BREAKS, ...LONE_SURROGATES]) {
      for (const [where, body] of [
        ['firstName', validSignUp(ctx.demo, { firstName: `Ne${bad}w` })],
        ['lastName', validSignUp(ctx.demo, { lastName: `${bad}Member` })],
        [`customFields.${company}`, validSignUp(ctx.demo, {}, { [company]: `Acme${bad}` })],
      ] as const) {
        const res = await ctx.signUp(body);
        expect(res.status, `${where} ${show(bad)}`).toBe(400);
        await expectRefused(res, [where]);
      }
    }
    expect(await memberCount(ctx)).toBe(before);
  });

  test('one sign-up 400 names every field with a control character', async () => {
    const ctx = await fresh();
    const { company, bio } = ctx.demo.fieldIds;
    const res = await ctx.signUp(
      validSignUp(ctx.demo, { firstName: 'a\u0000', lastName: 'b\u0085' }, { [company!]: 'c\u001b[31m', [bio!]: 'd\u007f' }),
    );
    await expectRefused(res, ['firstName', 'lastName', `customFields.${company}`, `customFields.${bio}`]);
  });

  test('a textarea keeps tab, LF and CRLF, and refuses every other control character, a lone CR and a lone surrogate', async () => {
    const ctx = await fresh();
    const bio = String(ctx.demo.fieldIds.bio!);
    for (const [i, bad] of [...CONTROLS, '\r', 'a\rb', ...LONE_SURROGATES].entries()) {
      const res = await ctx.signUp(validSignUp(ctx.demo, { email: `t${i}@example.com` }, { [bio]: `line one${bad}line two` }));
      expect(res.status, show(bad)).toBe(400);
      await expectRefused(res, [`customFields.${bio}`]);
    }
    const text = 'line one\nline two\r\n\tindented\n';
    const res = await ctx.signUp(validSignUp(ctx.demo, {}, { [bio]: text }));
    const { memberInfo } = await jsonOf<{ memberInfo: MemberInfo }>(res, 201);
    expect(memberInfo.customSignupFields.find((f) => f.id === Number(bio))?.value).toBe(text);
  });

  test('text that only looks unusual is accepted: accents, emoji (a surrogate pair), other scripts, U+00A0 and U+00A1', async () => {
    const ctx = await fresh();
    const company = String(ctx.demo.fieldIds.company!);
    const res = await ctx.signUp(
      validSignUp(ctx.demo, { firstName: 'Zoë 😀', lastName: 'Ōtsuka 大塚' }, { [company]: 'Ümlaut\u00a0& Co\u00a1 𝔘' }),
    );
    const { memberInfo } = await jsonOf<{ memberInfo: MemberInfo }>(res, 201);
    expect(memberInfo).toMatchObject({ firstName: 'Zoë 😀', lastName: 'Ōtsuka 大塚' });
    expect(memberInfo.customSignupFields.find((f) => f.id === Number(company))?.value).toBe('Ümlaut\u00a0& Co\u00a1 𝔘');
  });

  test('sign-up refuses an e-mail address with a control character or a lone surrogate', async () => {
    const ctx = await fresh();
    const before = await memberCount(ctx);
    for (const bad of [...CONTROLS, ...LONE_SURROGATES]) {
      const res = await ctx.signUp(validSignUp(ctx.demo, { email: `new${bad}member@example.com` }));
      expect(res.status, show(bad)).toBe(400);
      await expectError(res, 400, 'invalidField', 'email');
    }
    expect(await memberCount(ctx)).toBe(before);
  });

  test('PUT /me/email refuses an address with a control character and keeps the old one', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    for (const bad of ['\u0000', '\u007f', '\u0085', '\ud800']) {
      const res = await ctx.authed(token, `${ME}/email`, { method: 'PUT', json: { email: `ada${bad}@example.com`, password: ADA.password } });
      expect(res.status, show(bad)).toBe(400);
      await expectError(res, 400, 'invalidField', 'email');
    }
    expect((await jsonOf<MemberInfo>(await ctx.authed(token, ME), 200)).email).toBe(ADA.email);
  });

  // Issue 27: names that show one thing and say another.
  const INVISIBLES = ['\u202E', '\u202A', '\u2066', '\u2069', '\u200E', '\u200F', '\u061C', '\u200B', '\u2060', '\uFEFF', '\u00AD', '\u180E'];

  test('a name with an invisible character (a bidi override, a zero-width space) is refused at sign-up and in PATCH /me; ZWNJ and ZWJ stay', async () => {
    const ctx = await fresh();
    const before = await memberCount(ctx);
    for (const bad of INVISIBLES) {
      await expectRefused(await ctx.signUp(validSignUp(ctx.demo, { firstName: `Ada${bad}nimda` })), ['firstName'], /invisible/);
      await expectRefused(await ctx.signUp(validSignUp(ctx.demo, { lastName: `Love${bad}lace` })), ['lastName'], /invisible/);
    }
    expect(await memberCount(ctx)).toBe(before);
    const { token } = await ctx.session(ADA);
    for (const bad of INVISIBLES) await expectRefused(await ctx.authed(token, ME, { method: 'PATCH', json: { firstName: `A${bad}da` } }), ['firstName'], /invisible/);
    expect((await jsonOf<MemberInfo>(await ctx.authed(token, ME), 200)).firstName).toBe('Ada');
    // A Persian name with ZWNJ, and an emoji family with ZWJ, are names.
    const named = await jsonOf<MemberInfo>(await ctx.authed(token, ME, { method: 'PATCH', json: { firstName: 'مهر\u200Cناز', lastName: '👨\u200D👩\u200D👧' } }), 200);
    expect([named.firstName, named.lastName]).toEqual(['مهر\u200Cناز', '👨\u200D👩\u200D👧']);
  });

  test('PATCH /me refuses control characters in names and text fields, keeps textarea line breaks, and changes nothing on a 400', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const { company, bio } = ctx.demo.fieldIds;
    const patch = (json: unknown) => ctx.authed(token, ME, { method: 'PATCH', json });
    const before = await jsonOf<MemberInfo>(await ctx.authed(token, ME), 200);
    for (const bad of [...CONTROLS, ...LONE_SURROGATES]) {
      await expectRefused(await patch({ firstName: `Ada${bad}` }), ['firstName']);
      await expectRefused(await patch({ lastName: `${bad}` }), ['lastName']);
      await expectRefused(await patch({ customFields: { [company!]: `x${bad}` } }), [`customFields.${company}`]);
      await expectRefused(await patch({ customFields: { [bio!]: `x${bad}` } }), [`customFields.${bio}`]);
    }
    for (const bad of LINE_BREAKS) {
      await expectRefused(await patch({ firstName: `A${bad}da`, lastName: 'Lovelace' }), ['firstName']);
      await expectRefused(await patch({ customFields: { [company!]: `x${bad}y` } }), [`customFields.${company}`]);
    }
    // Together: one 400 naming each, and the valid name given with them is not stored either.
    await expectRefused(await patch({ firstName: 'Augusta', lastName: 'L\u0000', customFields: { [bio!]: 'ok\u0007' } }), [
      'lastName',
      `customFields.${bio}`,
    ]);
    expect(await jsonOf<MemberInfo>(await ctx.authed(token, ME), 200)).toStrictEqual(before);

    const info = await jsonOf<MemberInfo>(await patch({ customFields: { [bio!]: 'one\r\ntwo\n\tthree' } }), 200);
    expect(info.customSignupFields.find((f) => f.id === bio)?.value).toBe('one\r\ntwo\n\tthree');
  });

  // ------------------------------------------------------------------ numbers JSON cannot carry

  test('PATCH /me/metadata with 1e999 (Infinity) anywhere answers 400 invalidMetadata and changes nothing', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const METADATA = `${BASE}/me/metadata`;
    const stored = async () => jsonOf<Record<string, unknown>>(await ctx.authed(token, METADATA), 200);
    const before = await stored();
    for (const raw of [
      '{"score": 1e999}',
      '{"score": -1e999}',
      '{"score": 1E400, "ok": 1}',
      '{"prefs": {"deep": {"x": [1, 2, 1e309]}}}',
      '{"list": [{"a": -2e308}]}',
      '{"theme": null, "n": 1e999}',
    ]) {
      const res = await ctx.authed(token, METADATA, { method: 'PATCH', raw });
      expect(res.status, raw).toBe(400);
      const body = await expectError(res, 400, 'invalidMetadata');
      expect(body.errors[0]!.message, raw).toMatch(/finite|too large/i);
      expect(await stored(), raw).toStrictEqual(before);
    }
    // The largest finite numbers are fine, and come back as sent.
    const ok = await jsonOf(await ctx.authed(token, METADATA, { method: 'PATCH', raw: '{"big": 1.7976931348623157e308, "tiny": -5e-324}' }), 200);
    expect(ok).toStrictEqual({ ...before, big: Number.MAX_VALUE, tiny: -5e-324 });
  });

  // No other route reads a number from a body: each field is text or a boolean, so 1e999 there is
  // already a 400. This guards that, so a number field added later is not let through unnoticed.
  test('no other body route stores 1e999: every field given it is a 400 and nothing changes', async () => {
    const ctx = await fresh();
    const { company } = ctx.demo.fieldIds;
    const count = await memberCount(ctx);
    for (const raw of [
      JSON.stringify(validSignUp(ctx.demo)).replace('"New"', '1e999'),
      JSON.stringify(validSignUp(ctx.demo)).replace('true', '1e999'),
      JSON.stringify(validSignUp(ctx.demo, {}, { [company!]: 0 })).replace(`"${company}":0`, `"${company}":1e999`),
      JSON.stringify(validSignUp(ctx.demo)).replace('"new.member@example.com"', '1e999'),
    ]) {
      expect((await ctx.request(`${BASE}/members`, { method: 'POST', raw })).status, raw).toBe(400);
    }
    expect(await memberCount(ctx)).toBe(count);

    const { token } = await ctx.session(GRACE);
    const before = await jsonOf<MemberInfo>(await ctx.authed(token, ME), 200);
    const send = (method: string, path: string, raw: string) => ctx.authed(token, `${BASE}${path}`, { method, raw });
    // The field named, where a route names one: card fields on /memberships and /payment-method are
    // refused whatever they hold (cards go to the processor's card field, /test-payment-methods).
    const rows: ReadonlyArray<readonly [method: string, path: string, raw: string, field?: string]> = [
      ['PATCH', '/me', '{"firstName": 1e999}'],
      ['PATCH', '/me', `{"customFields": {"${company}": -1e999}}`],
      ['POST', '/memberships', '{"planPublicId": 1e999}'],
      ['POST', '/memberships', '{"planPublicId": "monthly", "cardNumber": 1e999, "cardExpiry": "12/30", "cardCvc": "123"}', 'cardNumber'],
      ['POST', '/memberships', '{"planPublicId": "monthly", "cardNumber": "4242 4242 4242 4242", "cardExpiry": 1e999, "cardCvc": "123"}', 'cardNumber'],
      ['POST', '/memberships', '{"planPublicId": "monthly", "paymentMethodId": 1e999}', 'paymentMethodId'],
      ['PUT', '/payment-method', '{"cardNumber": "4242 4242 4242 4242", "cardExpiry": "12/30", "cardCvc": 1e999}', 'cardNumber'],
      ['PUT', '/payment-method', '{"paymentMethodId": 1e999}', 'paymentMethodId'],
      ['POST', '/test-payment-methods', '{"cardNumber": 1e999, "cardExpiry": "12/30", "cardCvc": "123"}', 'cardNumber'],
      ['POST', '/test-payment-methods', '{"cardNumber": "4242 4242 4242 4242", "cardExpiry": 1e999, "cardCvc": "123"}', 'cardExpiry'],
      ['POST', '/test-payment-methods', '{"cardNumber": "4242 4242 4242 4242", "cardExpiry": "12/30", "cardCvc": -1e999}', 'cardCvc'],
      ['PUT', '/me/email', `{"email": 1e999, "password": "${GRACE.password}"}`],
      ['PUT', '/me/password', `{"password": "${GRACE.password}", "newPassword": 1e999}`],
    ];
    for (const [method, path, raw, field] of rows) {
      const res = await send(method, path, raw);
      expect(res.status, `${method} ${path} ${raw}`).toBe(400);
      await expectError(res, 400, 'invalidField', field);
    }
    expect(await jsonOf<MemberInfo>(await ctx.authed(token, ME), 200)).toStrictEqual(before);
    expect((await ctx.authed(token, `${BASE}/payment-method`)).status).toBe(204);
    // Not even a processor customer was made: every refusal came before the processor was asked.
    expect((await ctx.store.getMember(ctx.demo.site.id, ctx.demo.memberIds.grace!))!.processorCustomerId).toBeUndefined();
  });

  // ------------------------------------------------------------------ ids

  test('POST /memberships/{id}/cancel refuses any spelling of the id but the canonical one with 400 invalidField on id, and cancels nothing', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(GRACE);
    const joined = await jsonOf<ConversionDetail>(
      await ctx.authed(token, `${BASE}/memberships`, { method: 'POST', json: { planPublicId: 'monthly', paymentMethodId: await testCard(ctx, token, GOOD_CARD) } }),
      201,
    );
    const id = joined.membership.id;
    const cancel = (spelled: string) => ctx.authed(token, `${BASE}/memberships/${spelled}/cancel`, { method: 'POST' });
    for (const spelled of [
      `${id}.0`, `${id}.`, `%20${id}`, `${id}%20`, `%09${id}`, `+${id}`, `%2B${id}`, `0x${id.toString(16)}`, `0o${id.toString(8)}`,
      `0b${id.toString(2)}`, `${id}e0`, `${id}0e-1`, `0${id}`, `00${id}`, `-0`, '0', `-${id}`, `${id}n`, 'Infinity', 'NaN',
      '1234567890123456', `${id}%00`, `%EF%BC%9${id % 10}`,
    ]) {
      const res = await cancel(spelled);
      expect(res.status, spelled).toBe(400);
      await expectError(res, 400, 'invalidField', 'id');
    }
    const [stored] = (await ctx.store.listMembershipsOfMember(ctx.demo.site.id, ctx.demo.memberIds.grace!)).filter((m) => m.id === id);
    expect(stored?.cancelsAt).toBeUndefined();
    const events = await ctx.store.listMemberEvents(ctx.demo.site.id, { memberId: ctx.demo.memberIds.grace! }, { limit: 100 });
    expect(events.items.filter((e) => e.eventType === 'cancellation')).toEqual([]);
    // A well-formed id that is not the member's stays a 404; the canonical one works.
    await expectError(await cancel('999999999999999'), 404, 'notFound', 'id');
    await jsonOf(await cancel(String(id)), 200);
  });

  test('a content id with a leading zero is not the item: 404 notFound on contentId, like any id that cannot be one', async () => {
    const ctx = await fresh();
    const { token } = await ctx.session(ADA);
    const welcome = ctx.demo.contentIds.welcome!;
    await jsonOf(await ctx.authed(token, `${BASE}/content/${welcome}`), 200);
    await jsonOf(await ctx.request(`${BASE}/content/${welcome}/plans`), 200);
    const viewsBefore = (await ctx.store.listContentViews(ctx.demo.site.id, {}, { limit: 100 })).items.length;
    for (const spelled of [`0${welcome}`, `00${welcome}`, `${welcome}.0`, `+${welcome}`, `%20${welcome}`, `${welcome}e0`, `0x${welcome.toString(16)}`]) {
      await expectError(await ctx.authed(token, `${BASE}/content/${spelled}`), 404, 'notFound', 'contentId');
      await expectError(await ctx.request(`${BASE}/content/${spelled}/plans`), 404, 'notFound', 'contentId');
    }
    expect((await ctx.store.listContentViews(ctx.demo.site.id, {}, { limit: 100 })).items.length).toBe(viewsBefore);
  });
});
