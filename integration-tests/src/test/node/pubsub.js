'use strict';
// subscribe() and psubscribe() on one connection, publish() from another: every message arrives
// once per matching subscription, in publish order, and publish() counts the receivers.
const { run, eventually, assert } = require('./harness');

const MESSAGES = 500;

run(async ({ keys: [prefix], connect }) => {
  const channel = `${prefix}:channel`;
  const subscriber = connect();
  const publisher = connect();
  const messages = [];
  const patternMessages = [];
  subscriber.on('message', (from, message) => messages.push([from, message]));
  subscriber.on('pmessage', (pattern, from, message) => patternMessages.push([pattern, from, message]));

  assert.equal(await subscriber.subscribe(channel), 1);
  assert.equal(await subscriber.psubscribe(`${prefix}:*`, `${prefix}:other`), 3);
  await assert.rejects(subscriber.get(channel), /Connection in subscriber mode, only subscriber commands may be used/);

  const receivers = [];
  for (let i = 0; i < MESSAGES; i++) {
    receivers.push(publisher.publish(channel, `m${i}`));
  }
  receivers.push(publisher.publish(`${prefix}:other`, 'to both patterns'));
  const counts = await Promise.all(receivers);
  assert.deepEqual(counts.slice(0, MESSAGES), Array(MESSAGES).fill(2), 'the channel and one pattern');
  assert.equal(counts[MESSAGES], 2, 'two patterns');

  await eventually('every message delivered', () => messages.length === MESSAGES
    && patternMessages.length === MESSAGES + 2);
  assert.deepEqual(messages, Array.from({ length: MESSAGES }, (_, i) => [channel, `m${i}`]));
  assert.deepEqual(patternMessages.slice(0, MESSAGES),
    Array.from({ length: MESSAGES }, (_, i) => [`${prefix}:*`, channel, `m${i}`]));
  assert.deepEqual(patternMessages.slice(MESSAGES).sort(), [
    [`${prefix}:*`, `${prefix}:other`, 'to both patterns'],
    [`${prefix}:other`, `${prefix}:other`, 'to both patterns'],
  ]);

  assert.deepEqual(await publisher.pubsub('NUMSUB', channel), [channel, 1]);
  // ioredis resolves an UNSUBSCRIBE or PUNSUBSCRIBE without arguments only once nothing is left.
  assert.equal(await subscriber.unsubscribe(channel), 2, 'the two patterns are left');
  assert.equal(await subscriber.punsubscribe(), 0);
  assert.equal(await publisher.publish(channel, 'nobody'), 0);
  assert.equal(await subscriber.set(`${prefix}:after`, 'x'), 'OK', 'out of subscriber mode');
  await subscriber.del(`${prefix}:after`);
  return { messages: messages.length, patternMessages: patternMessages.length };
});
