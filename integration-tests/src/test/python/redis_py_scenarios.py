"""redis-py scenarios for RedisPyClientTest: run as `python3 redis_py_scenarios.py SCENARIO PORT KEY...`.

Each scenario drives the server the way an application does and asserts what Redis replies. The
script prints "ok SCENARIO" and exits 0 when the scenario passed; otherwise it prints why (the
assertion or the traceback) and exits 1. The Java test bounds the whole run in time; every blocking
call here has its own timeout too, so a missing reply fails the scenario instead of hanging it.
"""
import sys
import threading
import time
import traceback

import redis
from redis.exceptions import LockNotOwnedError, NoScriptError, WatchError

SOCKET_TIMEOUT = 10


def connect(port):
    return redis.Redis(host="127.0.0.1", port=port, socket_timeout=SOCKET_TIMEOUT, decode_responses=True)


def pipelines(port, keys):
    counter, hash_key, list_key = keys
    r = connect(port)
    r.delete(counter, hash_key, list_key)
    with r.pipeline(transaction=False) as pipe:
        pipe.set(counter, 10).incrby(counter, 5).hset(hash_key, mapping={"a": "1", "b": "2"})
        pipe.rpush(list_key, "x", "y", "z").lrange(list_key, 0, -1).hgetall(hash_key).get(counter)
        results = pipe.execute()
    assert results == [True, 15, 2, 3, ["x", "y", "z"], {"a": "1", "b": "2"}, "15"], results
    with r.pipeline() as pipe:
        pipe.incr(counter).lpop(list_key).hincrby(hash_key, "a", 41).exists(counter, hash_key, list_key)
        results = pipe.execute()
    assert results == [16, "x", 42, 3], results
    with r.pipeline() as pipe:
        pipe.set(counter, "text").incr(counter).get(counter)
        results = pipe.execute(raise_on_error=False)
    assert results[0] is True and results[2] == "text", results
    assert isinstance(results[1], redis.ResponseError), results
    assert "not an integer" in str(results[1]), results


def transaction(port, keys):
    balance, log = keys
    r = connect(port)
    other = connect(port)
    r.delete(balance, log)
    r.set(balance, 100)
    attempts = []

    def withdraw(pipe):
        attempts.append(1)
        current = int(pipe.get(balance))
        if len(attempts) == 1:
            other.incrby(balance, 50)
        pipe.multi()
        pipe.set(balance, current - 30)
        pipe.rpush(log, "withdrew 30 from %d" % current)

    results = r.transaction(withdraw, balance, log)
    assert len(attempts) == 2, "expected one WATCH retry, ran %d times" % len(attempts)
    assert results == [True, 1], results
    assert r.get(balance) == "120", r.get(balance)
    assert r.lrange(log, 0, -1) == ["withdrew 30 from 150"], r.lrange(log, 0, -1)
    with r.pipeline() as pipe:
        pipe.watch(balance)
        other.set(balance, 0)
        pipe.multi()
        pipe.set(balance, 1)
        try:
            pipe.execute()
            raise AssertionError("EXEC after a watched key changed did not raise WatchError")
        except WatchError:
            pass
    assert r.get(balance) == "0", r.get(balance)


def lock(port, keys):
    name, expiring = keys
    r = connect(port)
    other = connect(port)
    r.delete(name, expiring)
    # Released by another thread below, so the token must not be thread-local.
    held = r.lock(name, timeout=5, thread_local=False)
    assert held.acquire(blocking=False)
    assert held.owned() and held.locked()
    assert held.extend(5)
    assert 5000 < r.pttl(name) <= 10000, r.pttl(name)
    assert not other.lock(name).acquire(blocking=False)
    released_at = []

    def release_later():
        time.sleep(0.3)
        released_at.append(time.monotonic())
        held.release()

    releaser = threading.Thread(target=release_later)
    releaser.start()
    waiter = other.lock(name, timeout=5, sleep=0.02)
    acquired = waiter.acquire(blocking=True, blocking_timeout=5)
    acquired_at = time.monotonic()
    releaser.join(5)
    assert acquired, "the second client never got the lock after its release"
    assert released_at and acquired_at >= released_at[0], "the second client got the lock before its release"
    waiter.release()
    assert not r.exists(name)

    short = r.lock(expiring, timeout=0.2)
    assert short.acquire(blocking=False)
    time.sleep(0.5)
    assert not r.exists(expiring), "the lock outlived its timeout"
    successor = other.lock(expiring, timeout=5)
    assert successor.acquire(blocking=False)
    try:
        short.release()
        raise AssertionError("releasing an expired lock that another client holds did not raise")
    except LockNotOwnedError:
        pass
    assert successor.owned()
    successor.release()


def script(port, keys):
    (key,) = keys
    r = connect(port)
    r.delete(key)
    add = r.register_script("return redis.call('INCRBY', KEYS[1], ARGV[1])")
    assert add(keys=[key], args=[5]) == 5
    assert r.script_exists(add.sha) == [True]
    r.script_flush()
    assert r.script_exists(add.sha) == [False]
    try:
        r.evalsha(add.sha, 1, key, 1)
        raise AssertionError("EVALSHA after SCRIPT FLUSH did not raise NoScriptError")
    except NoScriptError:
        pass
    assert add(keys=[key], args=[2]) == 7
    assert r.script_exists(add.sha) == [True]
    with r.pipeline() as pipe:
        add(keys=[key], args=[3], client=pipe)
        pipe.get(key)
        assert pipe.execute() == [10, "10"]
    r.script_flush()
    with r.pipeline(transaction=False) as pipe:
        add(keys=[key], args=[1], client=pipe)
        assert pipe.execute() == [11]


def pubsub(port, keys):
    (channel,) = keys
    r = connect(port)
    publisher = connect(port)
    p = r.pubsub()
    p.subscribe(channel)
    assert next_message(p) == {"type": "subscribe", "pattern": None, "channel": channel, "data": 1}
    p.psubscribe(channel + ":*")
    assert next_message(p) == {"type": "psubscribe", "pattern": None, "channel": channel + ":*", "data": 2}
    assert publisher.publish(channel, "one") == 1
    assert publisher.publish(channel + ":sub", "two") == 1
    assert next_message(p) == {"type": "message", "pattern": None, "channel": channel, "data": "one"}
    assert next_message(p) == {"type": "pmessage", "pattern": channel + ":*", "channel": channel + ":sub",
                               "data": "two"}
    assert p.get_message(timeout=0.2) is None
    p.unsubscribe(channel)
    assert next_message(p)["type"] == "unsubscribe"
    p.punsubscribe()
    assert next_message(p) == {"type": "punsubscribe", "pattern": None, "channel": channel + ":*", "data": 0}
    assert publisher.publish(channel, "three") == 0
    p.close()


def next_message(p):
    message = p.get_message(timeout=5)
    assert message is not None, "no pub/sub message within 5 s"
    return message


def consumer_group(port, keys):
    stream, acked_key = keys
    group, jobs = "workers", 30
    r = connect(port)
    r.delete(stream, acked_key)
    r.xgroup_create(stream, group, id="0", mkstream=True)
    assert r.xlen(stream) == 0
    dead = connect(port)
    for i in range(5):
        r.xadd(stream, {"job": str(i)})
    claimed_by_dead = dead.xreadgroup(group, "dead", {stream: ">"}, count=3)
    dead_ids = [entry_id for entry_id, _ in claimed_by_dead[0][1]]
    assert len(dead_ids) == 3, claimed_by_dead
    dead.close()

    acked = []
    stop = threading.Event()
    failure = []

    def work(consumer):
        worker = connect(port)
        try:
            while not stop.is_set():
                reply = worker.xreadgroup(group, consumer, {stream: ">"}, count=4, block=200)
                for _, entries in reply:
                    for entry_id, fields in entries:
                        assert worker.xack(stream, group, entry_id) == 1, entry_id
                        worker.rpush(acked_key, fields["job"])
                        acked.append(entry_id)
        except Exception:
            failure.append(traceback.format_exc())
        finally:
            worker.close()

    workers = [threading.Thread(target=work, args=("worker-%d" % i,)) for i in range(2)]
    for thread in workers:
        thread.start()
    time.sleep(0.3)
    for i in range(5, jobs):
        r.xadd(stream, {"job": str(i)})
    deadline = time.monotonic() + 10
    while len(acked) < jobs - 3 and time.monotonic() < deadline and not failure:
        time.sleep(0.05)
    stop.set()
    for thread in workers:
        thread.join(5)
    assert not failure, failure[0]
    assert len(acked) == jobs - 3, "workers acked %d of %d entries" % (len(acked), jobs - 3)

    pending = r.xpending(stream, group)
    assert pending["pending"] == 3 and pending["min"] == dead_ids[0] and pending["max"] == dead_ids[-1], pending
    assert pending["consumers"] == [{"name": "dead", "pending": 3}], pending
    time.sleep(0.1)
    next_id, claimed, *_ = r.xautoclaim(stream, group, "rescuer", min_idle_time=50, start_id="0-0", count=10)
    assert [entry_id for entry_id, _ in claimed] == dead_ids, claimed
    assert next_id == "0-0", next_id
    for entry_id, fields in claimed:
        assert r.xack(stream, group, entry_id) == 1, entry_id
        r.rpush(acked_key, fields["job"])
    assert r.xpending(stream, group)["pending"] == 0
    done = sorted(int(job) for job in r.lrange(acked_key, 0, -1))
    assert done == list(range(jobs)), "jobs acked: %s" % done


SCENARIOS = {f.__name__: f for f in (pipelines, transaction, lock, script, pubsub, consumer_group)}

if __name__ == "__main__":
    scenario = sys.argv[1]
    try:
        SCENARIOS[scenario](int(sys.argv[2]), sys.argv[3:])
    except Exception:
        print("FAILED %s (redis-py %s)\n%s" % (scenario, redis.__version__, traceback.format_exc()))
        sys.exit(1)
    print("ok %s" % scenario)
