package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ACL against redis-server 7.0, reply for reply in RESP2 and RESP3 on every target, each on a server
 * of its own (users are server-wide): SETUSER's rule grammar and errors, GETUSER, LIST's canonical
 * rules, USERS, WHOAMI, CAT, GENPASS's and LOG's argument errors, DRYRUN, AUTH and HELLO AUTH, and
 * NOPERM for commands, keys (read and write patterns), channels, in MULTI (at queue time and at
 * EXEC), in scripts and for SORT's BY and GET. ACL LOG's entries are compared with their ages and
 * client details masked; ACL CAT's lists, which Redis gives in its dict's random order, as sets of
 * the commands Lacewing has.
 */
class AclReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final String COMMON = """
        ACL SETUSER {p}a on >p1 ~k* +get +@hash -hset &ch* %R~r* %W~w*
        ACL SETUSER {p}b +@all -@dangerous +client|info allkeys allchannels
        ACL SETUSER {p}c nocommands +get +get -get +get resetkeys ~x (~y* +set) (+@read ~z*)
        ACL SETUSER {p}d allcommands -client|kill resetchannels
        ACL SETUSER {p}e +@all +get -@read
        ACL SETUSER {p}f on nopass sanitize-payload ~* +get|x +select|0 +select|1
        ACL SETUSER {p}g reset on #f64551fcd6f07823cb87971cfb91446425da18286b3ab1ef935e0cbd7a69f68a >p2 <p2 %RW~q* &*
        ACL SETUSER {p}g "(~s* +@string" "-append)" skip-sanitize-payload
        ACL SETUSER {p}h +@all -@write +set ~* %R~a %W~a
        ACL SETUSER {p}i +@all -client +client|id -config +config|get
        ACL SETUSER {p}j +@all -@all +@fast -ping allkeys
        ACL SETUSER {p}k ON OFF ~a ~b ~a %R~b +@ALL -GET NoPass
        ACL GETUSER {p}a
        ACL GETUSER {p}b
        ACL GETUSER {p}c
        ACL GETUSER {p}d
        ACL GETUSER {p}e
        ACL GETUSER {p}f
        ACL GETUSER {p}g
        ACL GETUSER {p}h
        ACL GETUSER {p}i
        ACL GETUSER {p}j
        ACL GETUSER {p}k
        ACL GETUSER {p}nosuch
        ACL LIST
        ACL USERS
        ACL WHOAMI
        ACL SETUSER {p}x x
        ACL SETUSER {p}x +foo
        ACL SETUSER {p}x +@foo
        ACL SETUSER {p}x (+get
        ACL SETUSER {p}x (~a +get) (+set
        ACL SETUSER {p}x %X~a
        ACL SETUSER {p}x -get|x
        ACL SETUSER {p}x +client|nosuch
        ACL SETUSER {p}x +client|info|x
        ACL SETUSER {p}x +get|
        ACL SETUSER {p}x #abc
        ACL SETUSER {p}x !abc
        ACL SETUSER {p}x <nothere
        ACL SETUSER {p}x ~* ~k
        ACL SETUSER {p}x allkeys ~k
        ACL SETUSER {p}x &* &k
        ACL SETUSER {p}x "~a b"
        ACL SETUSER {p}x (~a +nosuch)
        ACL SETUSER "{p}x y" on
        ACL GETUSER {p}x
        ACL DELUSER default
        ACL DELUSER {p}nosuch1 {p}nosuch2
        ACL CAT
        ACL CAT nope
        ACL CAT read x
        ACL GENPASS 0
        ACL GENPASS 4097
        ACL GENPASS x
        ACL GENPASS 1 2
        ACL LOG x
        ACL LOG 1 2
        ACL SAVE
        ACL LOAD
        ACL WHOAMI x
        ACL GETUSER
        ACL NOSUCH
        ACL
        ACL DRYRUN {p}nosuch get x
        ACL DRYRUN {p}a nosuch
        ACL DRYRUN {p}a get
        ACL DRYRUN {p}a get k1
        ACL DRYRUN {p}a get x
        ACL DRYRUN {p}a set k1 v
        ACL DRYRUN {p}a hset k1 f v
        ACL DRYRUN {p}a hget k1 f
        ACL DRYRUN {p}a hget r1 f
        ACL DRYRUN {p}a hincrby r1 f 1
        ACL DRYRUN {p}a hincrby w1 f 1
        ACL DRYRUN {p}b publish x y
        ACL DRYRUN {p}d publish x y
        ACL DRYRUN {p}d subscribe x y
        ACL DRYRUN {p}d client kill id 1
        ACL DRYRUN {p}d client info
        ACL DRYRUN {p}d client nosuch
        ACL DRYRUN {p}c set y1 v
        ACL DRYRUN {p}c set z1 v
        ACL DRYRUN {p}c get z1
        ACL DRYRUN {p}c get x
        ACL DRYRUN {p}c mget x z1
        ACL DRYRUN {p}f select 0
        ACL DRYRUN {p}f select 2
        ACL DRYRUN {p}f get x
        ACL DRYRUN {p}h copy a b
        ACL DRYRUN {p}h lmove a b left left
        ACL DRYRUN {p}h set a b
        ACL DRYRUN {p}h get a
        ACL DRYRUN {p}i config get x
        ACL DRYRUN {p}i config set x y
        ACL DRYRUN {p}i client id
        FUNCTION LOAD REPLACE "#!lua name=acltest\\nredis.register_function('acltest_get', function(keys, args) return redis.call('get', keys[1]) end)"
        ACL SETUSER {p}u on >pw ~k* &ch %R~r* %W~w* +@all -flushall -@dangerous
        AUTH {p}u wrong
        AUTH {p}nosuch wrong
        AUTH {p}c x
        AUTH {p}u pw
        ACL WHOAMI
        FLUSHALL
        GET x
        GET k1
        GET r1
        SET r1 x
        SET w1 x
        GET w1
        COPY r1 w2
        COPY w1 w2
        MGET k1 r1 x
        PUBLISH other m
        PUBLISH ch m
        SORT k1 BY x*
        SORT k1 GET x*
        SORT k1 GET #
        SORT k1 BY nosort
        SORT k1 LIMIT 0 x GET #
        MULTI
        GET k1
        GET x
        EXEC
        MULTI
        GET k1
        ACL SETUSER {p}u -get
        GET k2
        ACL SETUSER {p}u %R~k2
        EXEC
        ACL SETUSER {p}u +get
        EVAL "return redis.call('get','x')" 0
        EVAL "return redis.pcall('flushall')" 0
        EVAL "return redis.pcall('get','k1')" 0
        EVAL "return redis.call('publish','zz','m')" 0
        FCALL acltest_get 1 k1
        FCALL acltest_get 1 x
        BLPOP x 1
        BLPOP k1 x 1
        SUBSCRIBE ch other
        ACL LOG RESET
        AUTH default anything
        AUTH anything
        ACL WHOAMI
        HELLO 2 AUTH {p}u wrong
        HELLO 2 AUTH {p}u pw
        ACL WHOAMI
        RESET
        ACL WHOAMI
        FUNCTION DELETE acltest
        ACL DELUSER {p}a {p}b {p}c {p}d {p}e {p}f {p}g {p}h {p}i {p}j {p}k {p}u {p}x
        ACL USERS
        """;

    static final List<String[]> SCRIPTS = List.of(
        new String[] {"acl-resp2", COMMON},
        new String[] {"acl-resp3", "HELLO 3\n" + COMMON});

    static Stream<Arguments> scripts() {
        return Servers.all().flatMap(target -> SCRIPTS.stream().map(s -> Arguments.of(target, s[0], s[1])));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scripts")
    void repliesAsRedisDoes(Target target, String name, String text) {
        String prefix = "acl" + RUNS.incrementAndGet() + ":";
        Script script = Script.parse(name, text, prefix);
        try (LacewingServer server = Servers.builder(target).start();
             RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(server.port())) {
            List<String> mismatches = ScriptComparison.mismatches(script, reference, lacewing);
            assertTrue(mismatches.isEmpty(), () -> ScriptComparison.report(mismatches));
        }
    }

    /** ACL LOG after denials of each kind and context, its ages and client details masked. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void logEntriesAsRedisHasThem(Target target) {
        try (LacewingServer server = Servers.builder(target).start()) {
            assertEquals(logAfterDenials(redis.port()), logAfterDenials(server.port()));
        }
    }

    private static String logAfterDenials(int port) {
        String user = "logged";
        try (RespClient client = RespClient.connect(port)) {
            client.call("ACL", "LOG", "RESET");
            client.call("ACL", "SETUSER", user, "on", ">pw", "~k*", "&ch", "+@all", "-flushall");
            client.call("AUTH", user, "wrong");
            client.call("AUTH", user, "pw");
            client.call("FLUSHALL");
            client.call("FLUSHALL");
            client.call("GET", "x");
            client.call("PUBLISH", "other", "m");
            client.call("MULTI");
            client.call("GET", "y");
            client.call("DISCARD");
            client.call("EVAL", "return redis.pcall('get','z')", "0");
            client.call("HELLO", "2", "AUTH", user, "bad");
            client.call("AUTH", "default", "x");
            List<String> lines = new ArrayList<>();
            lines.add(client.call("ACL", "LOG", "2"));
            lines.add(client.call("ACL", "LOG"));
            lines.add(client.call("HELLO", "3"));
            lines.add(client.call("ACL", "LOG", "1"));
            lines.add(client.call("HELLO", "2"));
            lines.add(client.call("ACL", "LOG", "-1"));
            lines.add(client.call("ACL", "LOG", "RESET"));
            lines.add(client.call("ACL", "LOG"));
            client.call("ACL", "DELUSER", user);
            return String.join("\n", lines).replaceAll(",[0-9.e-]+\r\n", ",AGE\r\n")
                .replaceAll("\\$[0-9]+\r\n[0-9.]+\r\n", "\\$AGE\r\n")
                .replaceAll("(?s)server.*modules", "HELLO")
                .replaceAll("\\$[0-9]+\r\nid=[^\r]* cmd=([^ ]*) user=([^ ]*) [^\r]*\r\n", "CLIENT cmd=$1 user=$2\r\n");
        }
    }

    /** ACL CAT of each category: the commands Lacewing has, as a set (Redis lists its dict's order). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void categoriesListTheCommandsRedisLists(Target target) {
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            TreeSet<String> known = new TreeSet<>(strings(lacewing.call("COMMAND", "LIST")));
            for (String category : strings(reference.call("ACL", "CAT"))) {
                TreeSet<String> expected = new TreeSet<>();
                for (String command : strings(reference.call("ACL", "CAT", category))) {
                    if (known.contains(command)) {
                        expected.add(command);
                    }
                }
                TreeSet<String> actual = new TreeSet<>(strings(lacewing.call("ACL", "CAT", category)));
                assertEquals(expected, actual, "ACL CAT " + category);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(String reply) {
        Object parsed = RespClient.parse(reply);
        assertTrue(parsed instanceof List<?>, reply);
        return (List<String>) parsed;
    }
}
