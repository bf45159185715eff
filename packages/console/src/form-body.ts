/**
 * Reading a posted form: the body is counted while it streams in and cut off past the limit, then
 * parsed (urlencoded or multipart); a field sent twice, a file, or a body that does not parse is a
 * client error with a message, never a server error.
 */

/** A posted form's fields, each sent once. */
export type FormFields = Record<string, string>;

/** The form, or the client error that explains why there is none. */
export type ReadForm =
  | { ok: true; form: FormFields }
  | { ok: false; status: 400 | 413 | 415; title: string; message: string };

/** Read `request`'s form, refusing bodies over `limit` bytes before they are read in full. */
export async function readForm(request: Request, limit: number): Promise<ReadForm> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  const tooLarge = {
    ok: false,
    status: 413,
    title: 'Too large',
    message: `The form is larger than this console accepts (${limit} bytes); nothing was applied.`,
  } as const;
  if (declared > limit) return tooLarge;
  const type = request.headers.get('content-type') ?? '';
  const multipart = type.toLowerCase().startsWith('multipart/form-data');
  if (!multipart && !type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return {
      ok: false,
      status: 415,
      title: 'Not a form',
      message: 'Send the form as application/x-www-form-urlencoded or multipart/form-data.',
    };
  }
  const bytes = await readLimited(request, limit);
  if (!bytes) return tooLarge;
  const malformed = (why: string) =>
    ({ ok: false, status: 400, title: 'Malformed form', message: `${why}; nothing was applied.` }) as const;
  let entries: Array<[string, FormDataEntryValue]>;
  if (multipart) {
    try {
      const parsed = await new Response(bytes, { headers: { 'content-type': type } }).formData();
      entries = [];
      parsed.forEach((value, name) => {
        entries.push([name, value]);
      });
    } catch {
      return malformed('The multipart form does not parse');
    }
  } else {
    entries = [...new URLSearchParams(new TextDecoder().decode(bytes)).entries()];
  }
  const form: FormFields = Object.create(null);
  for (const [name, value] of entries) {
    if (typeof value !== 'string')
      return malformed(`The field "${name}" is a file; this form takes text only`);
    if (Object.hasOwn(form, name)) return malformed(`The field "${name}" was sent more than once`);
    form[name] = value;
  }
  return { ok: true, form };
}

/** The body's bytes, or `undefined` as soon as more than `limit` arrived (the rest is not read). */
async function readLimited(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
