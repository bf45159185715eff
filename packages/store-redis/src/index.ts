/**
 * @agent-continuations/store-redis: the continuation store on Redis (ioredis).
 */
export { createRedisStore, type RedisStore, type RedisStoreOptions } from './redis-store';
