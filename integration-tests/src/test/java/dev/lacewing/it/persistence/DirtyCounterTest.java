package dev.lacewing.it.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.reference.ReferenceRedis;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dirty counter (INFO persistence's rdb_changes_since_last_save, what the save points count)
 * moves by what each command changed, as Redis 7.0.15's does for the same commands: per element
 * added, removed or set, not per key. Still off, left out here: LMOVE and RPOPLPUSH between two
 * lists count 2 (Redis 1); SORT ... STORE, GEOADD and GEOSEARCHSTORE count 1 per key (Redis: per
 * element stored); SWAPDB counts 0 (Redis 1).
 */
class DirtyCounterTest {

    private static final List<String[]> COMMANDS = List.of(
        new String[] {"SET", "s", "v"},
        new String[] {"MSET", "a", "1", "b", "2", "c", "3"},
        new String[] {"DEL", "a", "b", "missing"},
        new String[] {"APPEND", "s", "more"},
        new String[] {"INCR", "n"},
        new String[] {"SETRANGE", "s", "0", "x"},
        new String[] {"SADD", "set", "a", "b", "c"},
        new String[] {"SADD", "set", "a", "d"},
        new String[] {"SREM", "set", "a", "b", "missing"},
        new String[] {"SPOP", "set", "2"},
        new String[] {"HSET", "hash", "f1", "v", "f2", "v"},
        new String[] {"HSET", "hash", "f1", "w", "f3", "v"},
        new String[] {"HDEL", "hash", "f1", "f2", "missing"},
        new String[] {"HINCRBY", "hash", "n", "5"},
        new String[] {"LPUSH", "list", "a", "b", "c", "d"},
        new String[] {"RPUSH", "list", "e", "f"},
        new String[] {"LPOP", "list", "2"},
        new String[] {"RPOP", "list"},
        new String[] {"LSET", "list", "0", "z"},
        new String[] {"LREM", "list", "0", "z"},
        new String[] {"LTRIM", "list", "0", "0"},
        new String[] {"ZADD", "zset", "1", "a", "2", "b", "3", "c"},
        new String[] {"ZADD", "zset", "5", "a", "4", "d"},
        new String[] {"ZINCRBY", "zset", "1", "a"},
        new String[] {"ZREM", "zset", "a", "b", "missing"},
        new String[] {"ZPOPMIN", "zset", "2"},
        new String[] {"PFADD", "hll", "a", "b", "c"},
        // A short HLL stored by a script is embstr: PFADD re-encodes it raw, changing no register.
        new String[] {"EVAL", "redis.call('SET', KEYS[2], redis.call('GET', KEYS[1]))", "2", "hll", "hll-copy"},
        new String[] {"OBJECT", "ENCODING", "hll-copy"},
        new String[] {"PFADD", "hll-copy", "a"},
        new String[] {"OBJECT", "ENCODING", "hll-copy"},
        new String[] {"PFADD", "hll-copy", "a"},
        new String[] {"PFADD", "hll-copy", "d"},
        new String[] {"SET", "r1", "v"},
        new String[] {"SET", "r2", "v"},
        new String[] {"RENAME", "r1", "r2"},
        new String[] {"RENAME", "r2", "r3"},
        new String[] {"RENAME", "r3", "r4"},
        new String[] {"RENAME", "r4", "r5"},
        new String[] {"RENAME", "r5", "r5"},
        new String[] {"RENAMENX", "r5", "r6"},
        new String[] {"RENAMENX", "r6", "s"},
        new String[] {"RENAME", "r6", "s"},
        new String[] {"RENAME", "list", "list2"},
        new String[] {"EXPIRE", "s", "100"},
        new String[] {"PERSIST", "s"},
        new String[] {"XADD", "stream", "1-1", "f", "v"},
        // MOVE, COPY ... REPLACE: one change each, as moveCommand and copyCommand count them.
        new String[] {"SET", "mv", "v"},
        new String[] {"MOVE", "mv", "1"},
        new String[] {"SET", "mv", "w"},
        new String[] {"MOVE", "mv", "1"},
        new String[] {"MOVE", "missing", "1"},
        new String[] {"SADD", "src", "a", "b", "c", "d"},
        new String[] {"SMOVE", "src", "dst", "a"},
        new String[] {"SMOVE", "src", "dst", "missing"},
        new String[] {"SADD", "dst", "b"},
        new String[] {"SMOVE", "src", "dst", "b"},
        new String[] {"SMOVE", "src", "src", "c"},
        new String[] {"SMOVE", "missing", "dst", "c"},
        new String[] {"COPY", "s", "s-copy"},
        new String[] {"COPY", "s", "s-copy"},
        new String[] {"COPY", "s", "s-copy", "REPLACE"},
        new String[] {"COPY", "s", "s-db1", "DB", "1"},
        new String[] {"COPY", "missing", "s-copy", "REPLACE"},
        new String[] {"RPUSH", "lm", "a", "b", "c", "d"},
        new String[] {"LMOVE", "lm", "lm", "LEFT", "RIGHT"},
        new String[] {"LMOVE", "missing", "lm2", "LEFT", "LEFT"},
        new String[] {"LMPOP", "1", "lm", "LEFT", "COUNT", "2"},
        new String[] {"LINSERT", "lm2", "BEFORE", "a", "q"},
        new String[] {"SINTERSTORE", "sinter", "src", "dst"},
        new String[] {"SUNIONSTORE", "sunion", "src", "dst"},
        new String[] {"SDIFFSTORE", "sdiff", "src", "missing"},
        new String[] {"ZADD", "z2", "1", "a", "2", "b", "3", "c"},
        new String[] {"ZRANGESTORE", "zr", "z2", "0", "-1"},
        new String[] {"ZUNIONSTORE", "zu", "1", "z2"},
        new String[] {"ZMPOP", "1", "z2", "MIN", "COUNT", "2"},
        new String[] {"GETSET", "s", "x"},
        new String[] {"GETDEL", "s-copy"},
        new String[] {"SETNX", "s", "y"},
        new String[] {"SETNX", "newkey", "y"},
        new String[] {"HSETNX", "hash", "new", "v"},
        new String[] {"HINCRBYFLOAT", "hash", "fl", "1.5"},
        new String[] {"INCRBYFLOAT", "n", "1.5"},
        new String[] {"BITOP", "OR", "bo", "s", "s"},
        new String[] {"SETBIT", "bits", "3", "1"},
        new String[] {"SETBIT", "bits", "3", "1"},
        new String[] {"PFMERGE", "hm", "hll", "hll-copy"},
        new String[] {"UNLINK", "sunion", "sdiff", "missing"},
        new String[] {"FLUSHALL"});

    /** rdb_changes_since_last_save after each command; OBJECT's reply too. */
    private static List<String> changes(RespClient client) {
        Pattern field = Pattern.compile("rdb_changes_since_last_save:(\\d+)");
        List<String> steps = new ArrayList<>();
        long before = 0;
        for (String[] command : COMMANDS) {
            String reply = client.call(command);
            if (command[0].equals("OBJECT")) {
                steps.add(reply);
            }
            Matcher matcher = field.matcher(client.call("INFO", "persistence"));
            matcher.find();
            long now = Long.parseLong(matcher.group(1));
            steps.add(String.join(" ", command) + " -> " + (now - before));
            before = now;
        }
        return steps;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void eachCommandCountsWhatRedisCounts(Target target) throws Exception {
        List<String> expected;
        try (ReferenceRedis redis = ReferenceRedis.start("--save", "");
             RespClient client = RespClient.connect(redis.port())) {
            expected = changes(client);
        }
        try (LacewingServer server = Servers.builder(target).set("save", "").start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals(String.join("\n", expected), String.join("\n", changes(client)));
        }
    }
}
