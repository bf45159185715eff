/**
 * Answering input requests through forms generated from the human tool's response schema, and the
 * deadlines of actions shown in the inbox and the run view.
 */
import {
  type ContinuableAgent,
  type ContinuationStore,
  createContinuableAgent,
  createMemoryStore,
  defineTool,
  listActions,
  type SuspendedResult,
  zodJsonSchema,
} from '@agent-continuations/core';
import { lastToolResults, scriptedModel } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { client, deskAgent, echo, formToken, testConsole } from './fixtures';

/** A leave desk whose `ask_manager` is answered as `response` says (days, a mode and a note). */
function leaveDesk(response: z.ZodType | undefined, options: { deadline?: Date } = {}) {
  return deskAgent({ question: 'Leave for Ann?', response, ...options });
}

const leave = z.object({
  days: z.number().int().min(1).max(5),
  mode: z.enum(['remote', 'office']),
  note: z.string().min(3).optional(),
  paid: z.boolean(),
});

async function opened(agent: ContinuableAgent<any, unknown>, agents?: Record<string, unknown>) {
  const store: ContinuationStore = createMemoryStore();
  const result = (await agent.run('Ann asks for leave')) as SuspendedResult;
  expect(result.status).toBe('suspended');
  await store.save(result.continuation);
  const inbox = testConsole(store, { agents: (agents ?? { [agent.name]: agent }) as never });
  const browser = client(inbox);
  const id = result.continuation.id;
  const page = await browser.get(`/runs/${encodeURIComponent(id)}`);
  expect(page.status).toBe(200);
  const csrf = formToken(page.text)!;
  const decide = (fields: Record<string, string>) =>
    browser.post(`/runs/${encodeURIComponent(id)}/decide`, { csrf, ...fields });
  return { store, id, page, browser, decide, continuation: result.continuation };
}

describe('answering an input request through its response schema', () => {
  it('generates one input per property of the answer, with the browser checks but not `required`', async () => {
    const { desk } = leaveDesk(leave);
    const { page } = await opened(desk);
    expect(page.text).toMatch(
      /<input type="number"[^>]*name="answer:call_ask:days"[^>]*step="1"[^>]*min="1"[^>]*max="5"[^>]*aria-required="true"/,
    );
    expect(page.text).toMatch(/<select[^>]*name="answer:call_ask:mode"[^>]*><option value=""><\/option>/);
    expect(page.text).toMatch(/<input type="text"[^>]*name="answer:call_ask:note"[^>]*minlength="3"/);
    expect(page.text).toMatch(/<input type="checkbox"[^>]*name="answer:call_ask:paid" value="true"/);
    expect(page.text).toMatch(/<label for="[^"]+">days \(required\)<\/label>/);
    expect(page.text).not.toContain('name="value:call_ask"');
    // Another decision on the same form must not be blocked by an empty answer.
    expect(page.text).not.toMatch(/name="answer:[^"]*"[^>]*\srequired/);
  });

  it('refuses an answer that fails the schema (422, values kept, nothing resumed), then applies a valid one', async () => {
    const { desk, model } = leaveDesk(leave);
    const { decide, store, id } = await opened(desk);
    const calls = model.calls.length;
    const invalid = await decide({
      'decision:call_ask': 'input',
      'answer:call_ask:days': '9',
      'answer:call_ask:mode': 'remote',
      'answer:call_ask:note': 'ok',
    });
    expect(invalid.status).toBe(422);
    expect(invalid.text).toContain('role="alert"');
    expect(invalid.text).toContain('answer.days must be at most 5.');
    expect(invalid.text).toContain('answer.note must have at least 3 characters.');
    expect(invalid.text).toMatch(/name="answer:call_ask:days" value="9"/);
    expect(invalid.text).toMatch(/name="answer:call_ask:note" value="ok"/);
    expect(invalid.text).toMatch(/<option value="remote" selected>/);

    const missing = await decide({ 'decision:call_ask': 'input', 'answer:call_ask:mode': 'office' });
    expect(missing.status).toBe(422);
    expect(missing.text).toContain('answer.days is required.');
    const notANumber = await decide({
      'decision:call_ask': 'input',
      'answer:call_ask:days': 'two',
      'answer:call_ask:mode': 'office',
    });
    expect(notANumber.status).toBe(422);
    expect(notANumber.text).toContain('&quot;two&quot; is not a number.');
    expect(model.calls.length).toBe(calls);
    expect((await store.load(id))?.status).toBe('suspended');

    const valid = await decide({
      'decision:call_ask': 'input',
      'answer:call_ask:days': '2',
      'answer:call_ask:mode': 'remote',
      'answer:call_ask:paid': 'true',
    });
    expect(valid.status).toBe(303);
    expect(valid.location).toContain('outcome=completed');
    expect(lastToolResults(model.calls.at(-1)!.messages)[0]?.output).toEqual({
      days: 2,
      mode: 'remote',
      paid: true,
    });
    const audit = await decide({ 'decision:call_ask': 'input', 'answer:call_ask:days': '3' });
    expect(audit.status).toBe(409);
  });

  it('rejecting leaves the answer inputs empty without a complaint', async () => {
    const { desk, model } = leaveDesk(leave);
    const { decide } = await opened(desk);
    const rejected = await decide({ 'decision:call_ask': 'reject', 'reason:call_ask': 'ask HR instead' });
    expect(rejected.status).toBe(303);
    expect(JSON.stringify(model.calls.at(-1)!.messages)).toContain('ask HR instead');
  });

  it('still takes a whole answer as `value:<actionId>` when no generated input is sent', async () => {
    const { desk, model } = leaveDesk(leave);
    const { decide } = await opened(desk);
    const wrong = await decide({ 'decision:call_ask': 'input', 'value:call_ask': '{"days":1}' });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain('answer.mode is required.');
    const answered = await decide({
      'decision:call_ask': 'input',
      'value:call_ask': '{"days":1,"mode":"office","paid":false}',
    });
    expect(answered.status).toBe(303);
    expect(lastToolResults(model.calls.at(-1)!.messages)[0]?.output).toEqual({
      days: 1,
      mode: 'office',
      paid: false,
    });
  });

  it('keeps the text answer without a response schema, or with one that is not an object', async () => {
    const free = leaveDesk(undefined);
    const { page, decide } = await opened(free.desk);
    expect(page.text).toContain('name="value:call_ask"');
    expect(page.text).not.toContain('name="answer:call_ask:');
    expect((await decide({ 'decision:call_ask': 'input', 'value:call_ask': '{"any":1}' })).status).toBe(303);
    expect(lastToolResults(free.model.calls.at(-1)!.messages)[0]?.output).toEqual({ any: 1 });

    const text = leaveDesk(z.string().min(2));
    const second = await opened(text.desk);
    expect(second.page.text).toContain('name="value:call_ask"');
    expect(second.page.text).toContain('Plain text.');
    const short = await second.decide({ 'decision:call_ask': 'input', 'value:call_ask': '7' });
    expect(short.status).toBe(422);
    expect(short.text).toContain('answer must have at least 2 characters.');
    // Text that reads as JSON stays text when the answer must be text.
    expect((await second.decide({ 'decision:call_ask': 'input', 'value:call_ask': '42' })).status).toBe(303);
    expect(lastToolResults(text.model.calls.at(-1)!.messages)[0]?.output).toBe('42');
  });

  it('an input asked from inside a running tool has no response schema: a text answer', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'refund', args: { order: 'A-1' }, id: 'call_refund' }] },
      echo,
    ]);
    const refund = defineTool({
      name: 'refund',
      parameters: z.object({ order: z.string() }),
      execute: async ({ order }, ctx) => {
        const amount = await ctx.requestInput<number>({ question: `Refund how much for ${order}?` });
        return `refunded ${amount}`;
      },
    });
    const shop = createContinuableAgent({ name: 'shop', model, tools: [refund] });
    const { page, decide } = await opened(shop);
    expect(page.text).toContain('name="value:call_refund"');
    expect((await decide({ 'decision:call_refund': 'input', 'value:call_refund': '12' })).status).toBe(303);
    expect(JSON.stringify(model.calls.at(-1)!.messages)).toContain('refunded 12');
  });

  it("takes an AI SDK human tool's `outputSchema` (a tool without `execute`) for the answer form", async () => {
    const { desk } = leaveDesk(leave);
    // An AI SDK agent exposes its tools as the SDK's record: a tool without `execute` is answered by a person.
    const sdkShaped = Object.assign(Object.create(desk) as object, {
      tools: {
        ask_manager: { inputSchema: z.object({ question: z.string() }), outputSchema: leave },
      },
    });
    const { page } = await opened(desk, { desk: sdkShaped });
    expect(page.text).toMatch(/name="answer:call_ask:days"[^>]*min="1"[^>]*max="5"/);

    // The SDK's `jsonSchema()` wrapper holds plain JSON Schema; a tool that runs asks from inside.
    const wrapped = { jsonSchema: zodJsonSchema(leave), validate: async (value: unknown) => ({ value }) };
    const withExecute = Object.assign(Object.create(desk) as object, {
      tools: { ask_manager: { inputSchema: {}, outputSchema: wrapped, execute: async () => ({}) } },
    });
    expect((await opened(desk, { desk: withExecute })).page.text).toContain('name="value:call_ask"');
    const withoutExecute = Object.assign(Object.create(desk) as object, {
      tools: { ask_manager: { inputSchema: {}, outputSchema: wrapped } },
    });
    expect((await opened(desk, { desk: withoutExecute })).page.text).toMatch(
      /<select[^>]*name="answer:call_ask:mode"/,
    );
  });
});

describe('deadlines', () => {
  it('shows "due" and "overdue" in the inbox row and on the run view', async () => {
    const store = createMemoryStore();
    const soon = leaveDesk(leave, { deadline: new Date('2099-01-02T03:04:00Z') });
    const late = leaveDesk(leave, { deadline: new Date('2001-01-02T03:04:00Z') });
    const ids: string[] = [];
    for (const { desk } of [soon, late]) {
      const result = (await desk.run('Ann asks for leave')) as SuspendedResult;
      expect(listActions(result.continuation)[0]?.deadline).toBeDefined();
      await store.save(result.continuation);
      ids.push(result.continuation.id);
    }
    const browser = client(testConsole(store, { agents: { desk: soon.desk } }));
    const inbox = await browser.get('/');
    expect(inbox.text).toContain('<th scope="col">Due</th>');
    expect(inbox.text).toContain('due <time datetime="2099-01-02T03:04:00.000Z">2099-01-02 03:04 UTC</time>');
    expect(inbox.text).toContain(
      '<strong>overdue</strong>: due <time datetime="2001-01-02T03:04:00.000Z">2001-01-02 03:04 UTC</time>',
    );
    const due = await browser.get(`/runs/${encodeURIComponent(ids[0]!)}`);
    expect(due.text).toMatch(/due <time datetime="2099-01-02T03:04:00.000Z">[^<]+<\/time> \(in \d+ d\)/);
    expect(due.text).not.toContain('<strong>overdue</strong>');
    const overdue = await browser.get(`/runs/${encodeURIComponent(ids[1]!)}`);
    expect(overdue.text).toMatch(/<strong>overdue<\/strong>: due <time datetime="2001-01-02T03:04:00.000Z">/);
  });

  it('an action without a deadline shows none', async () => {
    const { desk } = leaveDesk(leave);
    const { page, browser } = await opened(desk);
    expect(page.text).not.toMatch(/due <time/);
    expect((await browser.get('/')).text).not.toMatch(/due <time/);
  });
});
