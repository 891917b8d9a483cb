import { log } from '../diagnostics';
import type { MemberInfo } from '../public-types';
import type { CheckboxLabels } from '../checkbox-labels';
import type { MemberSource } from './member-source';
import { MEMBER_INFO } from './names';

/** A member value as MemberInfo holds it; a boolean comes only from a checkbox field. */
export type MemberValue = string | number | boolean | string[];

const CUSTOM_FIELD = /^customSignupField(\d+)$/;

function valueOf(member: MemberInfo, type: string): MemberValue | undefined {
  switch (type) {
    case 'id':
    case 'firstName':
    case 'lastName':
    case 'name':
    case 'email':
      return member[type];
    case 'profileImageUrl':
      // Without an uploaded image the service sends generated initials as a data: URL.
      return member.profileImageUrl.startsWith('data:') ? '' : member.profileImageUrl;
  }
  const id = CUSTOM_FIELD.exec(type)?.[1];
  return id ? member.customSignupFields.find((field) => field.id === Number(id))?.value : undefined;
}

/** The value each `data-svc-member-info` element names (spec 4.1), for text and for prefill. */
export class MemberValues {
  /** The type each element was last warned about, so a mistake is reported once. */
  readonly _warned = new WeakMap<Element, string>();

  constructor(
    readonly _state: MemberSource,
    readonly _labels: CheckboxLabels,
  ) {}

  /** The element's value; undefined when nobody is logged in or the type names nothing. */
  _value(element: Element): MemberValue | undefined {
    const member = this._state._member;
    if (!member) return undefined;
    const type = (element.getAttribute(MEMBER_INFO) ?? '').trim();
    const value = valueOf(member, type);
    if (value === undefined && this._warned.get(element) !== type) {
      this._warned.set(element, type);
      log.warn(`${MEMBER_INFO}="${type}" names no member information: use id, firstName, lastName, name, email, profileImageUrl or customSignupField<id>.`, element);
    }
    return value;
  }

  /**
   * As text: lists joined with ", ", checkboxes as Yes or No in the site's language. Null while
   * that language is still being fetched.
   */
  _text(value: MemberValue): string | null {
    if (typeof value !== 'boolean') return Array.isArray(value) ? value.join(', ') : String(value);
    const labels = this._labels._get();
    return labels && labels[value ? 0 : 1];
  }
}
