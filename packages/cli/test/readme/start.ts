import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { bank } from './agents';

const store = createSqliteStore({ path: 'agents.db' });
const result = await bank.run('Send 500 EUR to Bob');
if (result.status === 'suspended') await store.save(result.continuation);
await store.close();
