'use strict';
// multi()...exec(): the results array in order, a runtime error inside EXEC as that command's
// error, a queueing error rejecting EXEC with EXECABORT, DISCARD, and atomicity: a reader on
// another connection never sees one key of a transaction written without the other.
const { run, assert } = require('./harness');

run(async ({ keys: [a, b], connect }) => {
  const redis = connect();
  const reader = connect();
  await redis.del(a, b);

  const results = await redis.multi().set(a, '1').incr(a).set(b, 'x').mget(a, b).exec();
  assert.deepEqual(results, [[null, 'OK'], [null, 2], [null, 'OK'], [null, ['2', 'x']]]);

  const mixed = await redis.multi().set(a, 'v').lpush(a, 'x').get(a).exec();
  assert.deepEqual(mixed[0], [null, 'OK']);
  assert.match(mixed[1][0].message, /^WRONGTYPE Operation against a key holding the wrong kind of value$/);
  assert.deepEqual(mixed[2], [null, 'v']);

  await assert.rejects(redis.multi().set(a, 'never').call('NOSUCHCOMMAND').exec(),
    /EXECABORT Transaction discarded because of previous errors/);
  assert.equal(await redis.get(a), 'v');

  assert.equal(await redis.multi({ pipeline: false }), 'OK');
  assert.equal(await redis.set(a, 'discarded'), 'QUEUED');
  assert.equal(await redis.discard(), 'OK');
  assert.equal(await redis.get(a), 'v');

  const ROUNDS = 300;
  await redis.mset(a, '-1', b, '-1');
  const tornPairs = [];
  let reads = 0;
  const writer = (async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const [[, setA], [, setB]] = await redis.multi().set(a, String(i)).set(b, String(i)).exec();
      assert.equal(setA, 'OK');
      assert.equal(setB, 'OK');
    }
  })();
  let writing = true;
  writer.finally(() => { writing = false; });
  while (writing) {
    const [valueA, valueB] = await reader.mget(a, b);
    reads++;
    if (valueA !== valueB) {
      tornPairs.push([valueA, valueB]);
    }
  }
  await writer;
  assert.deepEqual(tornPairs, [], `${tornPairs.length} of ${reads} reads saw half a transaction`);
  return { results, reads };
});
