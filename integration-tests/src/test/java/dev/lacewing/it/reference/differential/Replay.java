package dev.lacewing.it.reference.differential;

import dev.lacewing.it.reference.DeliberateDifferences;
import dev.lacewing.it.resp.RespClient;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Optional;

/**
 * Sends calls to redis-server and to Lacewing on one fresh connection each (RESP2, database 0)
 * after FLUSHALL on both, and finds the first call whose replies disagree. Calls are pipelined
 * in batches, which no command here can tell from one call at a time, and which keeps a replay
 * of thousands of calls well under a second.
 *
 * <p>Thread rule: one test thread.
 */
final class Replay {

    /** The first disagreement: the call's index and both raw replies. */
    record Mismatch(int index, Call call, String redis, String lacewing) {
    }

    /** Calls written before their replies are read: small enough that neither side's socket buffers fill. */
    private static final int BATCH = 64;

    private final int redisPort;
    private final int lacewingPort;
    private int replays;
    private long compared;
    private long errors;
    private long wrongType;

    Replay(int redisPort, int lacewingPort) {
        this.redisPort = redisPort;
        this.lacewingPort = lacewingPort;
    }

    /** What the compared replies were, as evidence of what a run reached. */
    String tally() {
        return compared + " replies compared, " + errors + " of them errors (" + wrongType + " WRONGTYPE)";
    }

    /** How many replays have run. */
    int replays() {
        return replays;
    }

    Optional<Mismatch> firstMismatch(List<Call> calls) {
        replays++;
        try (RespClient redis = RespClient.connect(redisPort); RespClient lacewing = RespClient.connect(lacewingPort)) {
            redis.call("FLUSHALL");
            lacewing.call("FLUSHALL");
            for (int from = 0; from < calls.size(); from += BATCH) {
                List<Call> batch = calls.subList(from, Math.min(calls.size(), from + BATCH));
                ByteArrayOutputStream toRedis = new ByteArrayOutputStream();
                ByteArrayOutputStream toLacewing = new ByteArrayOutputStream();
                for (Call call : batch) {
                    toLacewing.writeBytes(RespClient.encode(call.arguments()));
                    for (List<byte[]> request : call.fixture() ? call.redisInstead() : List.of(call.arguments())) {
                        toRedis.writeBytes(RespClient.encode(request));
                    }
                }
                redis.send(toRedis.toByteArray());
                lacewing.send(toLacewing.toByteArray());
                for (int i = 0; i < batch.size(); i++) {
                    Call call = batch.get(i);
                    Optional<Mismatch> mismatch = compare(from + i, call, redis, lacewing);
                    if (mismatch.isPresent()) {
                        return mismatch;
                    }
                }
            }
        }
        return Optional.empty();
    }

    private Optional<Mismatch> compare(int index, Call call, RespClient redis, RespClient lacewing) {
        if (call.fixture()) {
            for (int i = 0; i < call.redisInstead().size(); i++) {
                read(redis);
            }
            String answer = read(lacewing);
            return answer.equals("+OK\r\n") ? Optional.empty()
                : Optional.of(new Mismatch(index, call, "+OK\r\n (the fixture's reply)", answer));
        }
        String fromRedis = read(redis);
        String fromLacewing = read(lacewing);
        compared++;
        if (fromRedis.startsWith("-")) {
            errors++;
            wrongType += fromRedis.startsWith("-WRONGTYPE") ? 1 : 0;
        }
        String words = call.words();
        boolean agree = call.check().agree(DeliberateDifferences.normalize(words, fromRedis),
            DeliberateDifferences.normalize(words, fromLacewing));
        return agree ? Optional.empty() : Optional.of(new Mismatch(index, call, fromRedis, fromLacewing));
    }

    /** One raw reply, or a description of why none came (which then never agrees with a reply). */
    private static String read(RespClient client) {
        try {
            return RespClient.text(client.readReply());
        } catch (RuntimeException e) {
            return "<no reply: " + e.getMessage() + ">";
        }
    }
}
