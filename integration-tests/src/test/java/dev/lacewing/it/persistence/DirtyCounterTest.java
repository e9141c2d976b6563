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
