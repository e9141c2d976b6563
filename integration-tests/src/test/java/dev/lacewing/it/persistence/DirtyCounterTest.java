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
 * added, removed or set, not per key; a move between two lists one change; SWAPDB and the
 * FUNCTION writes one each though no key changes.
 */
class DirtyCounterTest {

    private static final String RESTORE =
        "return redis.call('RESTORE', KEYS[2], 0, redis.call('DUMP', KEYS[1]), unpack(ARGV))";
    private static final String RESTORE_TTL =
        "return redis.call('RESTORE', KEYS[2], ARGV[1], redis.call('DUMP', KEYS[1]), unpack(ARGV, 2))";

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
        new String[] {"RPUSH", "l1", "a", "b", "c", "d"},
        new String[] {"RPUSH", "l2", "x"},
        new String[] {"LMOVE", "l1", "l2", "LEFT", "RIGHT"},
        new String[] {"RPOPLPUSH", "l1", "l2"},
        new String[] {"RPOPLPUSH", "l1", "newlist"},
        new String[] {"RPUSH", "one", "z"},
        new String[] {"LMOVE", "one", "l2", "LEFT", "LEFT"},
        new String[] {"BLMOVE", "l2", "l1", "LEFT", "RIGHT", "0"},
        new String[] {"BRPOPLPUSH", "l2", "l1", "0"},
        new String[] {"LPUSHX", "l1", "p", "q"},
        new String[] {"RPUSHX", "missing", "p"},
        new String[] {"BLMPOP", "0", "1", "l1", "LEFT", "COUNT", "2"},
        new String[] {"RPUSH", "srt", "3", "1", "2"},
        new String[] {"SORT", "srt", "STORE", "sorted"},
        new String[] {"SORT", "srt", "BY", "nosort", "GET", "#", "GET", "#", "STORE", "sorted"},
        new String[] {"SORT", "missing", "STORE", "sorted"},
        new String[] {"SORT", "missing", "STORE", "sorted"},
        new String[] {"GEOADD", "geo", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"},
        new String[] {"GEOADD", "geo", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"},
        new String[] {"GEOADD", "geo", "CH", "13.361389", "38.115556", "Palermo", "15.0", "37.5", "Catania", "14", "37", "Other"},
        new String[] {"GEOADD", "geo", "NX", "13", "38", "Palermo"},
        new String[] {"GEOSEARCHSTORE", "gs", "geo", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "ASC"},
        new String[] {"GEOSEARCHSTORE", "gs", "geo", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "ASC", "STOREDIST"},
        new String[] {"GEOSEARCHSTORE", "gs", "geo", "FROMLONLAT", "100", "10", "BYRADIUS", "1", "km", "ASC"},
        new String[] {"GEOSEARCHSTORE", "gs", "geo", "FROMLONLAT", "100", "10", "BYRADIUS", "1", "km", "ASC"},
        new String[] {"GEORADIUS", "geo", "15", "37", "200", "km", "STORE", "gr"},
        new String[] {"GEORADIUSBYMEMBER", "geo", "Palermo", "500", "km", "STOREDIST", "grm"},
        new String[] {"SWAPDB", "0", "1"},
        new String[] {"SWAPDB", "0", "1"},
        new String[] {"SWAPDB", "0", "0"},
        new String[] {"XADD", "st", "1-1", "f", "v"},
        new String[] {"XADD", "st", "2-1", "f", "v"},
        new String[] {"XADD", "st", "MAXLEN", "1", "3-1", "f", "v"},
        new String[] {"XADD", "st", "4-1", "f", "v"},
        new String[] {"XADD", "st", "5-1", "f", "v"},
        new String[] {"XDEL", "st", "4-1", "5-1", "9-9"},
        new String[] {"XTRIM", "st", "MAXLEN", "0"},
        new String[] {"XADD", "st", "6-1", "f", "v"},
        new String[] {"XADD", "st", "7-1", "f", "v"},
        new String[] {"XADD", "st", "8-1", "f", "v"},
        new String[] {"XADD", "st", "9-1", "f", "v"},
        new String[] {"XGROUP", "CREATE", "st", "g", "0"},
        new String[] {"XGROUP", "CREATE", "st2", "g", "$", "MKSTREAM"},
        new String[] {"XGROUP", "CREATECONSUMER", "st", "g", "c1"},
        new String[] {"XGROUP", "CREATECONSUMER", "st", "g", "c1"},
        new String[] {"XREADGROUP", "GROUP", "g", "c2", "COUNT", "3", "STREAMS", "st", ">"},
        new String[] {"XREADGROUP", "GROUP", "g", "c2", "COUNT", "5", "STREAMS", "st", ">"},
        new String[] {"XREADGROUP", "GROUP", "g", "c3", "COUNT", "5", "STREAMS", "st", ">"},
        new String[] {"XREADGROUP", "GROUP", "g", "c2", "COUNT", "5", "STREAMS", "st", "0"},
        new String[] {"XACK", "st", "g", "6-1", "7-1", "99-1"},
        new String[] {"XCLAIM", "st", "g", "c3", "0", "8-1"},
        new String[] {"XCLAIM", "st", "g", "c4", "0", "8-1", "9-1"},
        new String[] {"XCLAIM", "st", "g", "c5", "0", "99-1"},
        new String[] {"XCLAIM", "st", "g", "c3", "0", "8-1", "LASTID", "100-1"},
        new String[] {"XCLAIM", "st", "g", "c3", "0", "99-1", "LASTID", "200-1"},
        new String[] {"XAUTOCLAIM", "st", "g", "c6", "0", "0"},
        new String[] {"XAUTOCLAIM", "st", "g", "c7", "0", "99-1"},
        new String[] {"XGROUP", "CREATE", "st", "g2", "0"},
        new String[] {"XREADGROUP", "GROUP", "g2", "c1", "NOACK", "COUNT", "1", "STREAMS", "st", ">"},
        new String[] {"XGROUP", "SETID", "st", "g", "0"},
        new String[] {"XGROUP", "DELCONSUMER", "st", "g", "c6"},
        new String[] {"XGROUP", "DESTROY", "st", "g2"},
        new String[] {"XSETID", "st", "300-1"},
        new String[] {"XTRIM", "st", "MINID", "9-1"},
        new String[] {"SET", "b", "x"},
        new String[] {"SETBIT", "b", "7", "0"},
        new String[] {"BITFIELD", "b", "SET", "u8", "0", "120"},
        new String[] {"BITFIELD", "b", "SET", "u8", "0", "255", "SET", "u8", "8", "1", "GET", "u8", "0"},
        new String[] {"BITFIELD", "b", "INCRBY", "u8", "0", "0"},
        new String[] {"BITFIELD", "b", "OVERFLOW", "FAIL", "INCRBY", "u8", "8", "300"},
        new String[] {"BITFIELD", "b", "OVERFLOW", "FAIL", "INCRBY", "u8", "8", "300", "SET", "u8", "16", "7"},
        new String[] {"BITFIELD", "nb", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "300"},
        new String[] {"BITFIELD", "nb3", "SET", "u8", "0", "0"},
        new String[] {"PFCOUNT", "hll"},
        new String[] {"PFCOUNT", "hll"},
        new String[] {"HMSET", "hash", "a", "1", "c", "3"},
        new String[] {"HDEL", "hash", "a", "c", "missing"},
        new String[] {"ZADD", "zs", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e"},
        new String[] {"ZADD", "zs", "INCR", "1", "a"},
        new String[] {"ZADD", "zs", "XX", "CH", "10", "a", "10", "g"},
        new String[] {"ZADD", "zs", "GT", "1", "b", "20", "c"},
        new String[] {"ZREMRANGEBYSCORE", "zs", "0", "1"},
        new String[] {"ZREMRANGEBYRANK", "zs", "0", "0"},
        new String[] {"ZADD", "zl", "0", "a", "0", "b", "0", "c", "0", "d"},
        new String[] {"ZREMRANGEBYLEX", "zl", "[a", "[b"},
        new String[] {"ZPOPMAX", "zs", "2"},
        new String[] {"BZPOPMIN", "zs", "0"},
        new String[] {"BZMPOP", "0", "1", "zl", "MIN", "COUNT", "5"},
        new String[] {"ZADD", "zo", "2", "b", "3", "c", "4", "d"},
        new String[] {"ZINTERSTORE", "zi", "2", "zs", "zo"},
        new String[] {"ZINTERSTORE", "zi", "2", "zs", "missing"},
        new String[] {"ZDIFFSTORE", "zd", "2", "zo", "zs"},
        new String[] {"SPOP", "set", "0"},
        // Pops and removals that empty the key count one per element, as the ones that leave some.
        new String[] {"SADD", "sp", "a", "b", "c", "d", "e"},
        new String[] {"SPOP", "sp"},
        new String[] {"SPOP", "sp", "2"},
        new String[] {"SPOP", "sp", "10"},
        new String[] {"SADD", "sr", "a", "b"},
        new String[] {"SREM", "sr", "a", "b", "missing"},
        new String[] {"HSET", "he", "a", "1", "b", "2"},
        new String[] {"HDEL", "he", "a", "b", "missing"},
        new String[] {"ZADD", "ze", "1", "a", "2", "b"},
        new String[] {"ZREM", "ze", "a", "b", "missing"},
        new String[] {"ZADD", "ze", "1", "a", "2", "b", "3", "c"},
        new String[] {"ZREMRANGEBYRANK", "ze", "0", "-1"},
        new String[] {"ZADD", "ze", "1", "a"},
        new String[] {"ZPOPMIN", "ze", "5"},
        new String[] {"ZADD", "ze", "INCR", "1", "a"},
        new String[] {"ZADD", "missing", "XX", "1", "a"},
        new String[] {"GEOADD", "missing", "XX", "13", "38", "Palermo"},
        new String[] {"SETEX", "se", "100", "v"},
        new String[] {"PSETEX", "pse", "100000", "v"},
        new String[] {"MSETNX", "m1", "v", "m2", "v"},
        new String[] {"MSETNX", "m1", "v", "m3", "v"},
        new String[] {"DECRBY", "n", "2"},
        new String[] {"GETEX", "s", "EX", "100"},
        new String[] {"GETEX", "s", "PERSIST"},
        new String[] {"GETEX", "s", "PERSIST"},
        new String[] {"SET", "s", "v", "GET"},
        new String[] {"SET", "s", "v", "NX"},
        new String[] {"SET", "s", "v", "XX", "KEEPTTL"},
        new String[] {"SETRANGE", "s", "0", ""},
        new String[] {"SETRANGE", "empty", "3", ""},
        new String[] {"APPEND", "ap", ""},
        new String[] {"EXPIRE", "s", "100", "NX"},
        new String[] {"EXPIRE", "s", "50", "GT"},
        new String[] {"PEXPIREAT", "s", "99999999999999"},
        new String[] {"SET", "e", "v"},
        new String[] {"EXPIRE", "e", "-1"},
        // RESTORE one change, REPLACE included; a TTL already past stores nothing, one change only
        // where REPLACE deleted the old value (restoreCommand). Through EVAL for the binary payload.
        new String[] {"RPUSH", "dl", "a", "b", "c"},
        new String[] {"HSET", "dh", "a", "1", "b", "2"},
        new String[] {"EVAL", RESTORE, "2", "dl", "rl"},
        new String[] {"EVAL", RESTORE, "2", "dl", "rl"},
        new String[] {"EVAL", RESTORE, "2", "dl", "rl", "REPLACE"},
        new String[] {"EVAL", RESTORE, "2", "dh", "rl", "REPLACE"},
        new String[] {"EVAL", RESTORE_TTL, "2", "dh", "rh", "1000", "ABSTTL"},
        new String[] {"EVAL", RESTORE_TTL, "2", "dh", "rl", "1", "ABSTTL", "REPLACE"},
        new String[] {"EVAL", RESTORE_TTL, "2", "dh", "rl", "1", "ABSTTL", "REPLACE"},
        new String[] {"EVAL", RESTORE_TTL, "2", "dh", "rh", "100000", "IDLETIME", "100"},
        new String[] {"EVAL", RESTORE, "2", "dl", "rh", "REPLACE", "FREQ", "5"},
        new String[] {"EVAL", RESTORE, "2", "dl", "rh", "REPLACE", "IDLETIME", "5"},
        new String[] {"EVAL", RESTORE, "2", "dl", "rh", "REPLACE", "FREQ", "300"},
        new String[] {"RESTORE", "rg", "0", "garbage"},
        new String[] {"RESTORE", "rg", "0", "garbage", "REPLACE"},
        // Reads count nothing, nor does a key found expired and deleted; EXPIRE to a past time deletes: one.
        new String[] {"LPOS", "dl", "b"},
        new String[] {"LPOS", "dl", "x", "COUNT", "0"},
        new String[] {"SORT_RO", "dl", "ALPHA"},
        new String[] {"SORT", "dl", "ALPHA"},
        new String[] {"OBJECT", "ENCODING", "dl"},
        new String[] {"OBJECT", "REFCOUNT", "dl"},
        new String[] {"OBJECT", "IDLETIME", "dl"},
        new String[] {"DUMP", "dl"},
        new String[] {"DEBUG", "SLEEP", "0"},
        new String[] {"SET", "gone", "v", "PX", "1"},
        new String[] {"DEBUG", "SLEEP", "0.2"},
        new String[] {"GET", "gone"},
        new String[] {"SET", "gone", "v", "PX", "1"},
        new String[] {"DEBUG", "SLEEP", "0.2"},
        new String[] {"EXISTS", "gone"},
        new String[] {"SET", "gone", "v", "PX", "1"},
        new String[] {"DEBUG", "SLEEP", "0.3"},
        new String[] {"DBSIZE"},
        new String[] {"SET", "gone", "v"},
        new String[] {"DEL", "gone"},
        new String[] {"EXPIRE", "dh", "0"},
        new String[] {"PEXPIREAT", "dl", "1"},
        new String[] {"EXPIRE", "missing", "-1"},
        new String[] {"FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('f', function() return 1 end)"},
        new String[] {"FUNCTION", "LOAD", "REPLACE", "#!lua name=lib\nredis.register_function('f', function() return 1 end)"},
        new String[] {"FUNCTION", "DELETE", "lib"},
        new String[] {"FUNCTION", "FLUSH"},
        new String[] {"SELECT", "1"},
        new String[] {"FLUSHDB"},
        new String[] {"SELECT", "0"},
        new String[] {"FLUSHDB"},
        new String[] {"FLUSHALL"});

    /** rdb_changes_since_last_save after each command; OBJECT's reply too. */
    private static List<String> changes(RespClient client) {
        List<String> steps = new ArrayList<>();
        long before = 0;
        for (String[] command : COMMANDS) {
            String reply = client.call(command);
            if (command[0].equals("OBJECT") && command[1].equals("ENCODING")) {
                steps.add(reply);
            }
            long now = dirty(client);
            steps.add(String.join(" ", command) + " -> " + (now - before));
            before = now;
        }
        return steps;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void eachCommandCountsWhatRedisCounts(Target target) throws Exception {
        List<String> expected;
        try (ReferenceRedis redis = ReferenceRedis.start("--save", "", "--enable-debug-command", "yes");
             RespClient client = RespClient.connect(redis.port())) {
            expected = changes(client);
        }
        try (LacewingServer server = Servers.builder(target).set("save", "").start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals(String.join("\n", expected), String.join("\n", changes(client)));
        }
    }

    /** The dirty counter's move over one step. */
    private static long delta(RespClient client, Runnable step) {
        long before = dirty(client);
        step.run();
        return dirty(client) - before;
    }

    private static long dirty(RespClient client) {
        Matcher matcher = Pattern.compile("rdb_changes_since_last_save:(\\d+)").matcher(client.call("INFO", "persistence"));
        matcher.find();
        return Long.parseLong(matcher.group(1));
    }

    /**
     * FUNCTION RESTORE of the server's own FUNCTION DUMP under each policy, then clients blocked on
     * a key and served by another client's write: what the write and the serving count together.
     */
    private static List<String> servingChanges(int port) {
        List<String> steps = new ArrayList<>();
        try (RespClient client = RespClient.connect(port); RespClient blocked = RespClient.connect(port)) {
            client.call("FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('f', function() return 1 end)");
            client.call("FUNCTION", "LOAD", "#!lua name=lib2\nredis.register_function('g', function() return 1 end)");
            byte[] dump = client.callBytes(RespClient.toBytes("FUNCTION", "DUMP"));
            byte[] payload = java.util.Arrays.copyOfRange(dump, new String(dump, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf("\r\n") + 2, dump.length - 2);
            for (String policy : List.of("", "APPEND", "REPLACE", "FLUSH", "FLUSH-THEN-NONE")) {
                if (policy.equals("FLUSH-THEN-NONE")) {
                    client.call("FUNCTION", "FLUSH");
                }
                List<byte[]> command = new ArrayList<>(List.of(RespClient.toBytes("FUNCTION", "RESTORE").toArray(byte[][]::new)));
                command.add(payload);
                if (!policy.isEmpty() && !policy.equals("FLUSH-THEN-NONE")) {
                    command.add(RespClient.bytes(policy));
                }
                steps.add("FUNCTION RESTORE " + policy + " -> " + delta(client, () -> client.callBytes(command)));
            }
            steps.add("FUNCTION RESTORE garbage -> " + delta(client, () -> client.call("FUNCTION", "RESTORE", "garbage")));
            client.call("XGROUP", "CREATE", "xg", "g", "$", "MKSTREAM");
            client.call("XGROUP", "CREATE", "xg2", "g", "$", "MKSTREAM");
            String[][] cases = {
                {"BLPOP bl 0", "RPUSH bl a b"},
                {"BLPOP bl2 0", "RPUSH bl2 a"},
                {"BRPOP bl3 0", "LPUSH bl3 a b c"},
                {"BLMOVE bm bmd LEFT RIGHT 0", "RPUSH bm a b"},
                {"BLMOVE bm2 bm2d LEFT RIGHT 0", "RPUSH bm2 a"},
                {"BRPOPLPUSH bm3 bm3d 0", "RPUSH bm3 a"},
                {"BLMPOP 0 1 bp LEFT COUNT 3", "RPUSH bp a b"},
                {"BZPOPMIN bz 0", "ZADD bz 1 a 2 b"},
                {"BZPOPMAX bz2 0", "ZADD bz2 1 a"},
                {"BZMPOP 0 1 bz3 MIN COUNT 5", "ZADD bz3 1 a 2 b"},
                {"XREAD BLOCK 0 STREAMS xs $", "XADD xs 1-1 f v"},
                {"XREADGROUP GROUP g c BLOCK 0 STREAMS xg >", "XADD xg 2-1 f v"},
                {"XREADGROUP GROUP g c BLOCK 0 NOACK STREAMS xg2 >", "XADD xg2 2-1 f v"},
            };
            for (String[] pair : cases) {
                blocked.send(RespClient.encode(RespClient.toBytes(pair[0].split(" "))));
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (!client.call("INFO", "clients").contains("blocked_clients:1") && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                long moved = delta(client, () -> client.call(pair[1].split(" ")));
                blocked.readReply();
                steps.add(pair[0] + " served by " + pair[1] + " -> " + (moved + delta(client, () -> { })));
            }
        }
        return steps;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void restoringFunctionsAndServingBlockedClientsCountWhatRedisCounts(Target target) throws Exception {
        List<String> expected;
        try (ReferenceRedis redis = ReferenceRedis.start("--save", "")) {
            expected = servingChanges(redis.port());
        }
        try (LacewingServer server = Servers.builder(target).set("save", "").start()) {
            assertEquals(String.join("\n", expected), String.join("\n", servingChanges(server.port())));
        }
    }

    /** FLUSHALL with a save point saves, then counts one change (flushAllDataAndResetRDB). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void flushallWithASavePointLeavesOneChange(Target target) throws Exception {
        List<Long> expected;
        try (ReferenceRedis redis = ReferenceRedis.start("--save", "3600 1000");
             RespClient client = RespClient.connect(redis.port())) {
            expected = flushes(client);
        }
        try (LacewingServer server = Servers.builder(target).set("save", "3600 1000").start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals(expected, flushes(client));
        }
    }

    private static List<Long> flushes(RespClient client) {
        client.call("MSET", "a", "1", "b", "2", "c", "3");
        client.call("FLUSHALL");
        long afterFull = dirty(client);
        client.call("FLUSHALL");
        long afterEmpty = dirty(client);
        client.call("SET", "a", "1");
        client.call("FLUSHDB");
        return List.of(afterFull, afterEmpty, dirty(client));
    }
}
