/**
 * The inputs of a form generated from a JSON Schema (edited arguments, answers): one labelled input
 * per field, with the browser's own validation attributes; every value is escaped by the template.
 */
import type { JsonValue } from '@agent-continuations/core';
import { html } from 'hono/html';
import type { FieldSpec } from './schema-form';

type Html = ReturnType<typeof html>;

/** One labelled input per field, with the browser's validation attributes. */
export function schemaInputs(
  fields: FieldSpec[],
  how: {
    group: string;
    name: (field: string) => string;
    inputId: (index: number) => string;
    current: (field: string) => JsonValue | undefined;
    value: (name: string, fallback: string) => string;
    /** Put `required` on required fields (else only `aria-required`). */
    browserRequired: boolean;
  },
): Html {
  return html`<div role="group" aria-label="${how.group}">${fields.map((field, index) => {
    const name = how.name(field.name);
    const inputId = how.inputId(index);
    const original = how.current(field.name);
    const shown = how.value(
      name,
      original === undefined
        ? ''
        : field.type === 'json'
          ? JSON.stringify(original, null, 2)
          : typeof original === 'string'
            ? original
            : JSON.stringify(original),
    );
    const help = field.description
      ? html`<span id="${inputId}-help" class="muted"> ${field.description}</span>`
      : '';
    const describedBy = field.description ? html` aria-describedby="${inputId}-help"` : '';
    const required = field.required
      ? how.browserRequired
        ? html` required`
        : html` aria-required="true"`
      : '';
    const label = html`<label for="${inputId}">${field.label}${field.required ? ' (required)' : ''}</label>`;
    switch (field.type) {
      case 'boolean': {
        const on = options(shown) === 'true';
        return html`<label for="${inputId}"><input type="checkbox" id="${inputId}" name="${name}" value="true"${on ? html` checked` : ''}${describedBy}> ${field.label}</label>${help}`;
      }
      case 'enum':
        return html`${label}<select id="${inputId}" name="${name}"${required}${describedBy}>${field.required && how.browserRequired ? '' : html`<option value=""></option>`}${field.enumValues!.map(
          (option) =>
            html`<option value="${String(option)}"${String(option) === shown ? html` selected` : ''}>${String(option)}</option>`,
        )}</select>${help}`;
      case 'number':
      case 'integer':
        return html`${label}<input type="number" id="${inputId}" name="${name}" value="${shown}" step="${field.type === 'integer' ? '1' : 'any'}"${bound('min', field.minimum ?? nudge(field.exclusiveMinimum, field.type, 1))}${bound('max', field.maximum ?? nudge(field.exclusiveMaximum, field.type, -1))}${required}${describedBy}>${help}`;
      case 'string':
        return html`${label}<input type="text" id="${inputId}" name="${name}" value="${shown}"${field.pattern ? html` pattern="${`.*(?:${field.pattern}).*`}"` : ''}${bound('minlength', field.minLength)}${bound('maxlength', field.maxLength)}${required}${describedBy}>${help}`;
      default:
        return html`${label}<textarea id="${inputId}" name="${name}"${required}${describedBy}>${shown}</textarea>${help}`;
    }
  })}</div>`;
}

/** An exclusive bound as the inclusive one an input can carry (exact for integers). */
function nudge(limit: number | undefined, type: FieldSpec['type'], direction: 1 | -1): number | undefined {
  if (limit === undefined || type !== 'integer') return limit;
  return direction > 0 ? Math.floor(limit) + 1 : Math.ceil(limit) - 1;
}

function options(text: string): string {
  return text === 'on' ? 'true' : text;
}

function bound(attribute: string, limit: number | undefined): Html | string {
  return limit === undefined ? '' : html` ${attribute}="${String(limit)}"`;
}
