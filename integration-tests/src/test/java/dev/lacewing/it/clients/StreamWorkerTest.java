package dev.lacewing.it.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.lettuce.core.models.stream.PendingMessage;
import io.lettuce.core.models.stream.PendingMessages;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A consumer-group work queue written the way an application writes one with lettuce's own stream
 * API, run unchanged against every engine and transport: a producer XADDs jobs while two workers
 * block in XREADGROUP {@code >} and XACK what they process; a third worker reads jobs and "dies"
 * without acknowledging them, and the live workers take them over with XCLAIM and XAUTOCLAIM. At
 * the end every job was acknowledged exactly once and nothing is pending.
 */
class StreamWorkerTest {

    private static final String GROUP = "workers";
    private static final int JOBS = 300;
    private static final int DEAD_READS = 6;
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);

    @ParameterizedTest
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void everyJobIsProcessedExactlyOnceAcrossWorkersAndADeadConsumer(Target target) throws Exception {
        String stream = "{jobs}:" + target + ":queue";
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", Servers.server(target).port()));
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        try {
            RedisCommands<String, String> admin = open(client, connections);
            admin.del(stream);
            assertEquals("OK", admin.xgroupCreate(StreamOffset.from(stream, "$"), GROUP,
                XGroupCreateArgs.Builder.mkstream()));

            List<String> produced = new CopyOnWriteArrayList<>();
            for (int i = 0; i < DEAD_READS; i++) {
                produced.add(admin.xadd(stream, Map.of("job", Integer.toString(i))));
            }
            RedisCommands<String, String> dead = open(client, connections);
            List<StreamMessage<String, String>> abandoned = dead.xreadgroup(Consumer.from(GROUP, "dead"),
                XReadArgs.Builder.count(DEAD_READS), StreamOffset.lastConsumed(stream));
            assertEquals(produced, abandoned.stream().map(StreamMessage::getId).toList());

            Map<String, AtomicInteger> acked = new ConcurrentHashMap<>();
            AtomicInteger processed = new AtomicInteger();
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            for (String name : List.of("w1", "w2")) {
                RedisCommands<String, String> worker = open(client, connections);
                threads.add(start(failures, () -> {
                    Consumer<String> me = Consumer.from(GROUP, name);
                    while (processed.get() < JOBS - DEAD_READS && System.nanoTime() < deadline) {
                        for (StreamMessage<String, String> job : worker.xreadgroup(me,
                                XReadArgs.Builder.block(100).count(7), StreamOffset.lastConsumed(stream))) {
                            acknowledge(worker, stream, job, acked, processed);
                        }
                    }
                }));
            }
            RedisCommands<String, String> producer = open(client, connections);
            threads.add(start(failures, () -> {
                for (int i = DEAD_READS; i < JOBS; i++) {
                    produced.add(producer.xadd(stream, Map.of("job", Integer.toString(i))));
                }
            }));
            for (Thread thread : threads) {
                thread.join(TimeUnit.NANOSECONDS.toMillis(DEADLINE_NANOS) + 5_000);
            }
            assertEquals(List.of(), failures);
            assertEquals(JOBS - DEAD_READS, processed.get(), "jobs the live workers processed");

            PendingMessages pending = admin.xpending(stream, GROUP);
            assertEquals(DEAD_READS, pending.getCount());
            assertEquals(Map.of("dead", (long) DEAD_READS), pending.getConsumerMessageCount());
            List<PendingMessage> deadsEntries = admin.xpending(stream, Consumer.from(GROUP, "dead"),
                Range.create("-", "+"), Limit.from(100));
            assertEquals(produced.subList(0, DEAD_READS), deadsEntries.stream().map(PendingMessage::getId).toList());

            Thread.sleep(60);
            RedisCommands<String, String> w1 = open(client, connections);
            List<StreamMessage<String, String>> claimed = w1.xclaim(stream, Consumer.from(GROUP, "w1"),
                XClaimArgs.Builder.minIdleTime(50), produced.get(0), produced.get(1));
            assertEquals(produced.subList(0, 2), claimed.stream().map(StreamMessage::getId).toList());
            for (StreamMessage<String, String> job : claimed) {
                acknowledge(w1, stream, job, acked, processed);
            }
            RedisCommands<String, String> w2 = open(client, connections);
            String cursor = "0-0";
            do {
                ClaimedMessages<String, String> batch = w2.xautoclaim(stream,
                    XAutoClaimArgs.Builder.xautoclaim(Consumer.from(GROUP, "w2"), Duration.ofMillis(50), cursor).count(3));
                for (StreamMessage<String, String> job : batch.getMessages()) {
                    acknowledge(w2, stream, job, acked, processed);
                }
                cursor = batch.getId();
            } while (!"0-0".equals(cursor));

            assertEquals(JOBS, processed.get());
            assertEquals(new HashSet<>(produced), acked.keySet());
            Set<Integer> counts = new HashSet<>();
            acked.values().forEach(count -> counts.add(count.get()));
            assertEquals(Set.of(1), counts, "each job acknowledged exactly once");
            assertEquals(0, admin.xpending(stream, GROUP).getCount());
            assertEquals(List.of(), admin.xpending(stream, Consumer.from(GROUP, "dead"), Range.create("-", "+"),
                Limit.from(100)));

            List<Object> groups = admin.xinfoGroups(stream);
            assertEquals(1, groups.size());
            Map<String, Object> group = fields((List<?>) groups.get(0));
            assertEquals(GROUP, group.get("name"));
            assertEquals(3L, group.get("consumers"));
            assertEquals(0L, group.get("pending"));
            assertEquals(produced.get(JOBS - 1), group.get("last-delivered-id"));
            assertEquals((long) JOBS, admin.xlen(stream));
        } finally {
            connections.forEach(StatefulRedisConnection::close);
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private static RedisCommands<String, String> open(RedisClient client,
            List<StatefulRedisConnection<String, String>> connections) {
        StatefulRedisConnection<String, String> connection = client.connect();
        connection.setTimeout(Duration.ofSeconds(10));
        connections.add(connection);
        return connection.sync();
    }

    /** Processes a job: checks its payload, then acknowledges it, recording that XACK acknowledged it. */
    private static void acknowledge(RedisCommands<String, String> worker, String stream,
            StreamMessage<String, String> job, Map<String, AtomicInteger> acked, AtomicInteger processed) {
        assertTrue(job.getBody().containsKey("job"), job.toString());
        long count = worker.xack(stream, GROUP, job.getId());
        if (count == 1) {
            acked.computeIfAbsent(job.getId(), id -> new AtomicInteger()).incrementAndGet();
        }
        processed.incrementAndGet();
    }

    private static Thread start(List<Throwable> failures, Runnable body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable failure) {
                failures.add(failure);
            }
        });
        thread.start();
        return thread;
    }

    private static Map<String, Object> fields(List<?> flat) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < flat.size(); i += 2) {
            map.put(String.valueOf(flat.get(i)), flat.get(i + 1));
        }
        return map;
    }
}
