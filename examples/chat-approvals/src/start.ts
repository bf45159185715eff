/** Start the scripted models and the chat app on port 3000 (`PORT` to change it). */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChatApp, startChatModels } from './app';

const models = await startChatModels();
const app = await startChatApp({
  database: process.env.DATABASE ?? join(tmpdir(), 'chat-approvals.sqlite'),
  modelsURL: models.baseURL,
  port: Number(process.env.PORT ?? 3000),
  onTransfer: (transfer) => console.log(`transfer ran: ${JSON.stringify(transfer)}`),
});
console.log(`Open ${app.url} and ask "Pay Bob 500".`);
