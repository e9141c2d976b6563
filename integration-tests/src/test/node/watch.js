'use strict';
// watch() + multi(): a change to a watched key from another connection makes exec() resolve
// null and run nothing; an untouched watch lets it run; unwatch() forgets the watch.
const { run, assert } = require('./harness');

run(async ({ keys: [a, b], connect }) => {
  const redis = connect();
  const other = connect();
  await redis.del(a, b);
  await redis.set(a, '1');

  assert.equal(await redis.watch(a, b), 'OK');
  const seen = Number(await redis.get(a));
  await other.set(b, 'changed');
  const aborted = await redis.multi().set(a, String(seen + 1)).exec();
  assert.equal(aborted, null);
  assert.equal(await redis.get(a), '1');

  await redis.watch(a);
  const ran = await redis.multi().incr(a).exec();
  assert.deepEqual(ran, [[null, 2]]);

  await redis.watch(a);
  await redis.unwatch();
  await other.set(a, '10');
  assert.deepEqual(await redis.multi().incr(a).exec(), [[null, 11]]);
  await redis.del(a, b);
  return { aborted };
});
