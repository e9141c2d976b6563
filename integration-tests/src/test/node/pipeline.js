'use strict';
// pipeline(): 1,000 commands over keys on every shard, sent in one write, replies in order.
const { run, assert } = require('./harness');

const COMMANDS = 1000;

run(async ({ keys: [prefix], connect }) => {
  const redis = connect();
  const keys = Array.from({ length: COMMANDS / 4 }, (_, i) => `${prefix}:${i}`);
  const pipeline = redis.pipeline();
  for (const [i, key] of keys.entries()) {
    pipeline.set(key, `v${i}`).get(key).incr(`${key}:n`).del(`${key}:n`);
  }
  const replies = await pipeline.exec();
  assert.equal(replies.length, COMMANDS);
  for (const [i] of keys.entries()) {
    assert.deepEqual(replies.slice(4 * i, 4 * i + 4), [[null, 'OK'], [null, `v${i}`], [null, 1], [null, 1]]);
  }
  const errors = await redis.pipeline().set(prefix, 'x').lpush(prefix, 'y').get(prefix).exec();
  assert.deepEqual(errors[0], [null, 'OK']);
  assert.match(errors[1][0].message, /^WRONGTYPE /);
  assert.deepEqual(errors[2], [null, 'x']);
  assert.equal(await redis.del(prefix, ...keys), keys.length + 1);
  return { commands: replies.length };
});
