'use strict';
// Auto-reconnect after CLIENT KILL: the killed client reconnects by itself (a new client id),
// runs the commands issued while it was down, and a killed subscriber subscribes again and
// receives what is published after.
const { run, eventually, assert } = require('./harness');

run(async ({ keys: [key], connect }) => {
  const quickRetry = { retryStrategy: () => 20 };
  const redis = connect(quickRetry);
  const admin = connect();
  // CLIENT SETNAME on every connect: the killed subscriber is found by name in CLIENT LIST.
  const subscriberName = `subscriber-${process.pid}`;
  const subscriber = connect({ ...quickRetry, connectionName: subscriberName });
  await redis.set(key, 'before');
  const firstId = await redis.client('ID');
  let reconnects = 0;
  redis.on('reconnecting', () => reconnects++);

  assert.equal(await admin.client('KILL', 'ID', String(firstId)), 1);
  await eventually('the client sees the close', () => redis.status !== 'ready');
  assert.equal(await redis.get(key), 'before', 'queued while down, sent after reconnecting');
  const secondId = await redis.client('ID');
  assert.notEqual(secondId, firstId);
  assert.ok(reconnects >= 1);

  const channel = `${key}:channel`;
  const received = [];
  subscriber.on('message', (from, message) => received.push(message));
  await subscriber.subscribe(channel);
  const subscriberIds = async () => (await admin.client('LIST')).split('\n')
    .filter((line) => line.includes(` name=${subscriberName} `) && line.includes(' sub=1 '))
    .map((line) => line.match(/^id=(\d+) /)[1]);
  const [killedId] = await subscriberIds();
  assert.equal(await admin.client('KILL', 'ID', killedId), 1);
  // Lacewing drops a killed client's subscriptions on the client's own thread, a moment after
  // CLIENT KILL replies (Redis at once): the channel counts one subscriber again when it is the new one.
  await eventually('the subscriber is back, subscribed', async () => {
    const ids = await subscriberIds();
    return ids.length === 1 && ids[0] !== killedId && (await admin.pubsub('NUMSUB', channel))[1] === 1;
  });
  assert.equal(await admin.publish(channel, 'after the kill'), 1);
  await eventually('the message arrives', () => received.length === 1);
  assert.deepEqual(received, ['after the kill']);
  await admin.del(key);
  return { reconnects };
});
