'use strict';
// defineCommand(): the first call's EVALSHA fails with NOSCRIPT and ioredis falls back to EVAL,
// later calls run by EVALSHA, and a transaction loads it first. The script's text names the key,
// so that each run meets a server that has not cached it yet.
const { run, assert } = require('./harness');

run(async ({ keys: [key], connect }) => {
  const redis = connect();
  redis.defineCommand('setAndGet', {
    numberOfKeys: 1,
    lua: `-- ${key}\nredis.call('set', KEYS[1], ARGV[1]) return redis.call('get', KEYS[1])`,
  });
  assert.equal(await redis.setAndGet(key, 'first'), 'first');
  assert.equal(await redis.setAndGet(key, 'second'), 'second');
  assert.deepEqual(await redis.multi().setAndGet(key, 'in multi').get(key).exec(),
    [[null, 'in multi'], [null, 'in multi']]);
  await redis.del(key);
  return {};
});
