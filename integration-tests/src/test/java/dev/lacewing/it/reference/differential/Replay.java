package dev.lacewing.it.reference.differential;

import dev.lacewing.it.reference.DeliberateDifferences;
import dev.lacewing.it.resp.RespClient;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Optional;

/**
 * Sends calls to redis-server and to Lacewing on one fresh connection each (RESP2, database 0)
 * after FLUSHALL and SCRIPT FLUSH on both, and finds the first call whose replies disagree. Calls are pipelined
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
    private long executed;
    private long aborted;
    /** The calls Redis answered QUEUED since its MULTI, or null outside a transaction. */
    private List<Call> queued;

    Replay(int redisPort, int lacewingPort) {
        this.redisPort = redisPort;
        this.lacewingPort = lacewingPort;
    }

    /** What the compared replies were, as evidence of what a run reached. */
    String tally() {
        return compared + " replies compared, " + errors + " of them errors (" + wrongType + " WRONGTYPE); "
            + executed + " transactions executed, " + aborted + " refused (EXECABORT or a broken WATCH)";
    }

    /** How many replays have run. */
    int replays() {
        return replays;
    }

    Optional<Mismatch> firstMismatch(List<Call> calls) {
        replays++;
        queued = null;
        try (RespClient redis = RespClient.connect(redisPort); RespClient lacewing = RespClient.connect(lacewingPort)) {
            redis.call("FLUSHALL");
            lacewing.call("FLUSHALL");
            redis.call("SCRIPT", "FLUSH");
            lacewing.call("SCRIPT", "FLUSH");
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
        boolean agree = queued != null && call.name().equals("EXEC") ? execAgrees(fromRedis, fromLacewing)
            : agree(call, fromRedis, fromLacewing);
        follow(call, fromRedis);
        return agree ? Optional.empty() : Optional.of(new Mismatch(index, call, fromRedis, fromLacewing));
    }

    private static boolean agree(Call call, String redis, String lacewing) {
        String words = call.words();
        return call.check().agree(DeliberateDifferences.normalize(words, redis),
            DeliberateDifferences.normalize(words, lacewing));
    }

    /**
     * EXEC's array holds the queued calls' replies, each compared as that call's own reply is
     * (a random pick by its shape, a score as a double); anything else (EXECABORT, the nil of a
     * broken WATCH) must be identical.
     */
    private boolean execAgrees(String redis, String lacewing) {
        if (!redis.startsWith("*") || redis.startsWith("*-1") || !lacewing.startsWith("*")
            || lacewing.startsWith("*-1")) {
            aborted++;
            return redis.equals(lacewing);
        }
        executed++;
        List<String> fromRedis = RespClient.elements(redis);
        List<String> fromLacewing = RespClient.elements(lacewing);
        if (fromRedis.size() != queued.size() || fromLacewing.size() != queued.size()) {
            return redis.equals(lacewing);
        }
        for (int i = 0; i < queued.size(); i++) {
            if (!agree(queued.get(i), fromRedis.get(i), fromLacewing.get(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Follows the connection's transaction as Redis's replies show it: MULTI answered OK opens
     * one, a QUEUED call joins it, and EXEC (whatever its answer, even an arity error, which
     * discards) or DISCARD answered OK closes it.
     */
    private void follow(Call call, String fromRedis) {
        String name = call.name();
        if (queued == null) {
            if (name.equals("MULTI") && fromRedis.equals("+OK\r\n")) {
                queued = new java.util.ArrayList<>();
            }
        } else if (fromRedis.equals("+QUEUED\r\n")) {
            queued.add(call);
        } else if (name.equals("EXEC") || name.equals("DISCARD") && fromRedis.equals("+OK\r\n")) {
            queued = null;
        }
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
