'use strict';
// Shared by the test scripts: reads the server's port and the keys from the command line, runs
// one scenario under a time limit, prints one JSON line ({"ok":true,...} or {"ok":false,"error":...})
// and exits 0 only when the scenario passed. Every client a scenario opens is passed to track(),
// so that it is closed whatever happens.
const assert = require('node:assert/strict');
const Redis = require('ioredis');

const TIME_LIMIT_MS = 20000;

function run(scenario) {
  const port = Number(process.argv[2]);
  const keys = process.argv.slice(3);
  const clients = [];
  const track = (client) => {
    clients.push(client);
    return client;
  };
  const connect = (options = {}) => track(new Redis({
    host: '127.0.0.1', port, lazyConnect: false, maxRetriesPerRequest: 3, ...options,
  }));
  const timer = setTimeout(() => finish({ ok: false, error: `timed out after ${TIME_LIMIT_MS} ms` }, 1),
    TIME_LIMIT_MS);
  let finished = false;
  function finish(result, code) {
    if (finished) {
      return;
    }
    finished = true;
    clearTimeout(timer);
    for (const client of clients) {
      client.disconnect();
    }
    process.stdout.write(JSON.stringify(result) + '\n');
    process.exitCode = code;
    // A client that still holds a socket must not keep the process alive.
    setTimeout(() => process.exit(code), 200).unref();
  }
  Promise.resolve()
    .then(() => scenario({ port, keys, connect, track, Redis }))
    .then((observed) => finish({ ok: true, ...observed }, 0),
      (error) => finish({ ok: false, error: String(error && error.stack || error) }, 1));
}

// Resolves with the first time predicate() holds, polling every 10 ms; rejects after timeoutMs.
async function eventually(what, predicate, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) {
      throw new Error(`not within ${timeoutMs} ms: ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

module.exports = { run, eventually, assert };
