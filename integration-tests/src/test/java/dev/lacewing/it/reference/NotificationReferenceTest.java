package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Keyspace notifications against redis-server 7.0: a corpus of commands of every family runs on
 * both, each with {@code notify-keyspace-events KEAn} and a subscriber to {@code __key*__:*}, and
 * the sequences of (channel, message) the subscriber reads must be equal, element for element.
 * The corpus covers each event's conditions (a change or none, a key created, emptied, replaced
 * or expired), blocking pops served, streams and their groups, MULTI and the databases of MOVE and
 * COPY.
 *
 * <p>Directives: {@code @block command} sends a command on a second client and waits until the
 * server counts it blocked; {@code @sleep ms} lets keys expire; {@code ''} is an empty argument.
 */
class NotificationReferenceTest {

    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final String CLASSES = "KEAn";

    /** Ends a recording: published on a channel the subscription's pattern matches. */
    private static final String SENTINEL = "__keyevent@99__:end";

    private static final String CORPUS = """
        SET s1 v
        SET s1 v2 EX 100
        SET s1 v3 KEEPTTL
        SET s1 v4 NX
        SET s1 v5 XX GET
        SETNX s2 a
        SETNX s2 b
        SETEX s3 100 v
        PSETEX s3 100000 v
        GETSET s3 w
        GETSET gs v
        GETDEL s3
        GETDEL s3
        GETEX s1 EX 100
        GETEX s1 PERSIST
        GETEX s1 PERSIST
        GETEX s1
        SET gx v
        GETEX gx PXAT 1
        MSET m1 a m2 b
        MSET dup a dup b
        MSETNX m3 a m4 b
        MSETNX m3 a m5 b
        APPEND ap x
        APPEND ap y
        APPEND ap2 ''
        SETRANGE sr 2 ab
        SETRANGE sr 0 ''
        SETRANGE sr2 0 ''
        INCR n1
        INCRBY n1 5
        DECR n1
        DECRBY n1 2
        INCRBYFLOAT f1 1.5
        INCRBYFLOAT f2 0
        SET ex1 v
        EXPIRE ex1 100
        PEXPIRE ex1 100000
        EXPIRE ex1 50 GT
        EXPIRE ex1 200 GT
        PEXPIRE ex1 100 LT
        EXPIREAT ex1 99999999999
        EXPIRE ex1 -1
        SET ex2 v
        PEXPIREAT ex2 1
        EXPIRE nokey 10
        SET ex3 v EX 100
        PERSIST ex3
        PERSIST ex3
        SET r1 v
        RENAME r1 r2
        RENAMENX r2 r3
        RENAMENX r3 m1
        RENAME r3 r3
        SET r4 v
        RENAME r3 r4
        SET mv1 v
        MOVE mv1 3
        SET mv2 v
        SELECT 3
        SET mv2 w
        SELECT 0
        MOVE mv2 3
        COPY m1 c1
        COPY m1 c1
        COPY m1 c1 REPLACE
        COPY m1 c2 DB 2
        DEL m1 m2 nokey
        UNLINK m3 m4
        SETBIT b1 7 1
        SETBIT b1 7 1
        SETBIT b1 7 0
        SETBIT b1 100 0
        SETBIT b2 0 0
        SETBIT b2 0 0
        BITOP AND b3 b1 b1
        BITOP AND b3 nokey nokey1
        BITOP AND b4 nokey
        BITFIELD bf SET u8 0 0
        BITFIELD bf SET u8 0 0
        BITFIELD bf SET u8 0 5
        BITFIELD bf INCRBY u8 0 0
        BITFIELD bf SET u8 8 0
        BITFIELD bf INCRBY u8 0 300 OVERFLOW FAIL INCRBY u8 0 1000
        BITFIELD bf2 OVERFLOW FAIL INCRBY u8 0 1000
        BITFIELD bf GET u8 0
        PFADD h1 a b
        PFADD h1 a
        PFADD h2
        PFMERGE h3 h1
        PFMERGE h3 h2
        PFCOUNT h1 h3
        LPUSH l1 a b c
        RPUSH l1 d
        LPUSHX l1 e
        RPUSHX nolist e
        LINSERT l1 BEFORE a z
        LINSERT l1 BEFORE nope z
        LSET l1 0 q
        LPOP l1
        LPOP l1 0
        RPOP l1 2
        LPOP nolist
        LREM l1 1 z
        LREM l1 0 nope
        LTRIM l1 0 -1
        LTRIM l1 0 0
        LTRIM l1 5 10
        RPUSH l2 a b
        LMOVE l2 l3 LEFT RIGHT
        RPOPLPUSH l2 l3
        LMPOP 1 l3 LEFT COUNT 1
        LPOP l3
        RPUSH l4 x
        LMOVE l4 l4 RIGHT LEFT
        HSET hh a 1 b 2
        HSET hh a 3
        HSET hh a 3
        HSETNX hh c 1
        HSETNX hh c 2
        HMSET hh d 1
        HDEL hh a nope
        HDEL hh nope
        HINCRBY hh b 5
        HINCRBYFLOAT hh b 1.5
        HINCRBYFLOAT hf f 1
        HDEL hh b c d
        SADD ss a b c
        SADD ss a
        SREM ss a nope
        SREM ss nope
        SMOVE ss ss2 b
        SMOVE ss ss2 c
        SMOVE ss2 ss2 b
        SPOP ss2
        SPOP nos
        SPOP nos 2
        SADD ss4 a b c
        SPOP ss4 0
        SPOP ss4 2
        SPOP ss4 5
        SADD t1 a b
        SADD t2 b c
        SINTERSTORE t3 t1 t2
        SINTERSTORE t3 t1 t2
        SUNIONSTORE t4 t1 t2
        SDIFFSTORE t5 t1 t2
        SINTERSTORE t3 t1 nokey
        SINTERSTORE t6 t1 nokey
        SDIFFSTORE t1 t1 t1
        ZADD z1 1 a 2 b 3 c
        ZADD z1 5 a
        ZADD z1 5 a
        ZADD z1 XX 1 zz
        ZADD z1 NX 7 a
        ZADD z1 GT 0 a
        ZADD z1 CH 5 a
        ZADD z1 INCR 1 a
        ZINCRBY z1 1 b
        ZREM z1 a nope
        ZREM z1 nope
        ZREMRANGEBYSCORE z1 0 0
        ZREMRANGEBYSCORE z1 0 2
        ZADD z2 1 a 2 b 3 c 4 d
        ZREMRANGEBYRANK z2 0 0
        ZREMRANGEBYRANK z2 5 6
        ZREMRANGEBYLEX z2 [b [b
        ZPOPMIN z2
        ZPOPMIN z2 0
        ZPOPMIN noz
        ZPOPMAX z2 5
        ZADD z3 1 a 2 b
        ZADD z4 2 b 3 c
        ZUNIONSTORE z5 2 z3 z4
        ZINTERSTORE z6 2 z3 z4
        ZDIFFSTORE z7 2 z3 z4
        ZINTERSTORE z6 2 z3 nokey
        ZRANGESTORE z8 z3 0 -1
        ZRANGESTORE z8 z3 0 -1
        ZRANGESTORE z8 nokey 0 -1
        ZMPOP 1 z3 MIN
        ZREM z3 b
        RPUSH so 3 1 2
        SORT so STORE so2
        SORT so STORE so2
        SORT nokey STORE so2
        SORT so STORE so3 LIMIT 5 5
        SORT nokey STORE so4
        SET x1 v PX 1
        @sleep 20
        INCR x1
        SET x2 v PX 1
        @sleep 20
        SET x2 w
        SET x3 v PX 1
        @sleep 20
        LPUSH x3 a
        SET x4 v PX 1
        @sleep 20
        GET x4
        @block BLPOP bl 0
        RPUSH bl a b
        @block BRPOP bl2 0
        RPUSH bl2 a
        @block BLMOVE bm bmd LEFT RIGHT 0
        LPUSH bm a
        @block BZPOPMIN bz 0
        ZADD bz 1 a 2 b
        @block BLMPOP 0 1 bp RIGHT COUNT 5
        RPUSH bp a b
        GEOADD g 13.361389 38.115556 Palermo 15.087269 37.502669 Catania
        GEOADD g 13.361389 38.115556 Palermo
        GEOADD g XX 13.361389 38.115556 Nowhere
        GEOSEARCHSTORE gs g FROMLONLAT 15 37 BYRADIUS 200 km
        GEOSEARCHSTORE gs g FROMLONLAT 15 37 BYRADIUS 200 km STOREDIST
        GEORADIUS g 15 37 200 km STORE gr
        GEORADIUS g 15 37 200 km STOREDIST gr2
        GEOSEARCHSTORE gs g FROMLONLAT 100 0 BYRADIUS 1 km
        GEOSEARCHSTORE gs nog FROMLONLAT 100 0 BYRADIUS 1 km
        GEORADIUS nog 15 37 200 km STORE gr
        XADD st 1-1 f v
        XADD st MAXLEN 1 2-1 f v
        XADD st MAXLEN 5 3-1 f v
        XADD nost NOMKSTREAM 1-1 f v
        XTRIM st MAXLEN 0
        XTRIM st MAXLEN 0
        XADD st 4-1 f v
        XDEL st 4-1
        XDEL st 4-1
        XSETID st 5-0
        XGROUP CREATE st g $
        XGROUP CREATE sg g $ MKSTREAM
        XGROUP SETID st g 0
        XGROUP CREATECONSUMER st g c
        XGROUP CREATECONSUMER st g c
        XADD st 6-1 f v
        XREADGROUP GROUP g d STREAMS st >
        XREADGROUP GROUP g d STREAMS st >
        XACK st g 6-1
        XCLAIM st g e 0 6-1 FORCE
        XAUTOCLAIM st g f 0 0
        XGROUP DELCONSUMER st g c
        XGROUP DELCONSUMER st g zz
        XGROUP DESTROY st g
        XGROUP DESTROY st g
        DEL st sg
        MULTI
        SET tx1 a
        LPUSH tx2 a
        DEL tx1
        INCR tx1
        EXEC
        FLUSHDB
        SET fa v
        FLUSHALL
        SET d1 v
        DEL d1
        """;

    /**
     * Reads of keys that do not exist, or have just expired, with class m on: {@code keymiss} for
     * each read lookup that misses, in read-only commands and in the writes that read with
     * lookupKeyRead (SORT and its BY and GET keys, the STORE forms' sources, COPY, GETDEL, SET GET,
     * XREAD's two lookups...), in MULTI and in scripts; none for OBJECT, MEMORY USAGE, SCAN's TYPE
     * filter or a write's own lookups (LPOP, SMOVE, LPUSHX...), as Redis 7.0's lookupKey.
     */
    private static final String KEY_MISS_CORPUS = """
        GET nokey
        MGET nokey k1 nokey2
        SET k1 v
        MGET k1 nokey
        EXISTS nokey k1
        TYPE nokey
        TTL nokey
        PTTL nokey
        EXPIRETIME nokey
        PEXPIRETIME nokey
        OBJECT ENCODING nokey
        OBJECT FREQ nokey
        TOUCH nokey
        DUMP nokey
        STRLEN nokey
        GETRANGE nokey 0 1
        SUBSTR nokey 0 1
        GETEX nokey
        GETDEL nokey
        GETSET nokey v
        DEL nokey
        LCS nokey k1
        GETBIT nokey 1
        BITCOUNT nokey
        BITPOS nokey 1
        BITFIELD_RO nokey GET u8 0
        BITFIELD nokey GET u8 0
        BITOP OR dest nokey k1
        PFCOUNT nokey
        PFMERGE hdest nokey
        HGET nokey f
        HMGET nokey f g
        HGETALL nokey
        HKEYS nokey
        HLEN nokey
        HEXISTS nokey f
        HSTRLEN nokey f
        HRANDFIELD nokey
        HSCAN nokey 0
        LRANGE nokey 0 -1
        LINDEX nokey 0
        LLEN nokey
        LPOS nokey a
        SMEMBERS nokey
        SISMEMBER nokey a
        SMISMEMBER nokey a
        SCARD nokey
        SRANDMEMBER nokey
        SSCAN nokey 0
        SINTER nokey k2
        SUNION nokey nokey2
        SDIFF nokey nokey2
        SINTERCARD 2 nokey nokey2
        SUNIONSTORE sd nokey nokey2
        SINTERSTORE sd nokey
        SDIFFSTORE sd nokey
        SMOVE nokey sd a
        ZSCORE nokey a
        ZMSCORE nokey a
        ZRANK nokey a
        ZCARD nokey
        ZCOUNT nokey 0 1
        ZRANGE nokey 0 -1
        ZRANGEBYSCORE nokey 0 1
        ZRANDMEMBER nokey
        ZSCAN nokey 0
        ZUNION 2 nokey nokey2
        ZINTERCARD 1 nokey
        ZUNIONSTORE zd 2 nokey nokey2
        ZRANGESTORE zd nokey 0 -1
        ZPOPMIN nokey
        LPOP nokey
        RPOPLPUSH nokey l2
        LMOVE nokey l2 LEFT RIGHT
        SPOP nokey
        SORT nokey
        SORT_RO nokey
        SORT nokey STORE sd2
        GEOPOS nokey a
        GEODIST nokey a b
        GEOHASH nokey a
        GEOSEARCH nokey FROMLONLAT 0 0 BYRADIUS 1 km
        GEOSEARCHSTORE gd nokey FROMLONLAT 0 0 BYRADIUS 1 km
        XRANGE nokey - +
        XLEN nokey
        XREAD STREAMS nokey 0
        XINFO STREAM nokey
        COPY nokey c1
        RENAME nokey r1
        MOVE nokey 3
        EXPIRE nokey 10
        PERSIST nokey
        MEMORY USAGE nokey
        SCAN 0 TYPE string
        RANDOMKEY
        APPEND nokey x
        INCR nokey2
        HINCRBY nokey3 f 1
        SET x1 v PX 1
        @sleep 20
        GET x1
        SET x2 v PX 1
        @sleep 20
        EXISTS x2
        MULTI
        GET inmulti
        EXEC
        EVAL return(redis.call('GET','inscript')) 0
        SET sg v GET
        SET sg2 v NX
        SET sg3 v XX
        BITFIELD absentb SET u8 0 1
        BITFIELD absent5 INCRBY u8 0 1
        ZINTERSTORE zd 2 absent k1
        ZDIFFSTORE zd 1 absent
        ZINTER 1 absent
        ZDIFF 1 absent
        GEORADIUS absent 0 0 1 km STORE gd
        GEORADIUS absent 0 0 1 km
        GEORADIUSBYMEMBER absent a 1 km
        XREVRANGE absent + -
        XINFO GROUPS absent
        XPENDING absent g
        XREADGROUP GROUP g c STREAMS absent >
        XADD absent6 NOMKSTREAM * f v
        HSETNX absent7 f v
        LPUSHX absent l
        LINSERT absent BEFORE a b
        LSET absent 0 a
        SMOVE k1 sd a
        OBJECT IDLETIME absent
        RPUSH sl 1 2
        SORT sl BY w_* GET o_*
        SORT_RO sl BY w_* GET o_* GET #
        EVAL_RO return(redis.call('GET','inscript3')) 0
        XADD xs 1-1 f v
        XREAD STREAMS xs absent8 0 0
        """;

    @ParameterizedTest
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void everyFamilyPublishesWhatRedisDoes(Target target) {
        List<String> expected = record(redis.port(), CLASSES, CORPUS);
        try (LacewingServer server = Servers.builder(target).start()) {
            List<String> actual = record(server.port(), CLASSES, CORPUS);
            assertEquals(String.join("\n", expected), String.join("\n", actual));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void readLookupsThatMissPublishKeymissAsRedisDoes(Target target) {
        List<String> expected = record(redis.port(), CLASSES + "m", KEY_MISS_CORPUS);
        assertTrue(expected.contains("__keyevent@0__:keymiss nokey"), "the reference publishes keymiss");
        try (LacewingServer server = Servers.builder(target).start()) {
            List<String> actual = record(server.port(), CLASSES + "m", KEY_MISS_CORPUS);
            assertEquals(String.join("\n", expected), String.join("\n", actual));
        }
    }

    /** Runs a corpus against a server and returns what a subscriber read, as "channel message" lines. */
    private static List<String> record(int port, String classes, String corpus) {
        try (RespClient subscriber = RespClient.connect(port);
             RespClient client = RespClient.connect(port);
             RespClient blocker = RespClient.connect(port)) {
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "notify-keyspace-events", classes));
            client.call("FLUSHALL");
            subscriber.call("PSUBSCRIBE", "__key*__:*");
            boolean blocked = false;
            for (String line : corpus.lines().map(String::strip).filter(l -> !l.isEmpty()).toList()) {
                String[] words = line.split(" ");
                String[] command = Arrays.stream(words).map(w -> w.equals("''") ? "" : w).toArray(String[]::new);
                if (words[0].equals("@sleep")) {
                    sleep(Long.parseLong(words[1]));
                } else if (words[0].equals("@block")) {
                    blocker.send(RespClient.encode(RespClient.toBytes(Arrays.copyOfRange(command, 1, command.length))));
                    awaitBlocked(client);
                    blocked = true;
                } else {
                    client.call(command);
                    if (blocked) {
                        blocker.readReply();
                        blocked = false;
                    }
                }
            }
            client.call("PUBLISH", SENTINEL, "end");
            List<String> events = new ArrayList<>();
            while (true) {
                List<?> message = (List<?>) RespClient.parse(subscriber.readReplyText());
                if (message.get(2).equals(SENTINEL)) {
                    break;
                }
                events.add(message.get(2) + " " + message.get(3));
            }
            client.call("CONFIG", "SET", "notify-keyspace-events", "");
            return events;
        }
    }

    /** Waits (at most 5 s) until the server counts one blocked client. */
    private static void awaitBlocked(RespClient client) {
        for (int attempt = 0; attempt < 500; attempt++) {
            if (client.call("INFO", "clients").contains("blocked_clients:1")) {
                return;
            }
            sleep(10);
        }
        assertTrue(false, "no client blocked");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
