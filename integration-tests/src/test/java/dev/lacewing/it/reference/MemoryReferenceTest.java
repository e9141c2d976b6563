package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * OBJECT ENCODING / REFCOUNT / FREQ / HELP, the no-touch lookups and the OOM error, byte for byte
 * against redis-server 7.0, on a redis-server and a Lacewing server of its own (the script
 * changes maxmemory and maxmemory-policy, which the shared servers must not see). IDLETIME's
 * value is left out (a second boundary may fall between the two servers' calls). The REFCOUNT of a
 * small integer is whether it was shared when stored, through policy changes, RENAME, MOVE and
 * COPY (which duplicates it).
 */
class MemoryReferenceTest {

    private static final String SCRIPT = """
        FLUSHALL
        SET {p}int 12345
        OBJECT ENCODING {p}int
        SET {p}min -9223372036854775808
        OBJECT ENCODING {p}min
        SET {p}big 9223372036854775808
        OBJECT ENCODING {p}big
        SET {p}padded 0123
        OBJECT ENCODING {p}padded
        SET {p}negzero -0
        OBJECT ENCODING {p}negzero
        SET {p}e44 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
        OBJECT ENCODING {p}e44
        SET {p}r45 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
        OBJECT ENCODING {p}r45
        MSET {p}m1 77 {p}m2 hello
        OBJECT ENCODING {p}m1
        OBJECT ENCODING {p}m2
        INCR {p}counter
        OBJECT ENCODING {p}counter
        APPEND {p}app 12
        OBJECT ENCODING {p}app
        APPEND {p}app 3
        OBJECT ENCODING {p}app
        OBJECT REFCOUNT {p}app
        APPEND {p}app ""
        EXPIRE {p}app 1000
        OBJECT ENCODING {p}app
        RENAME {p}app {p}ren
        OBJECT ENCODING {p}ren
        COPY {p}ren {p}cop
        OBJECT ENCODING {p}cop
        MOVE {p}cop 1
        SELECT 1
        OBJECT ENCODING {p}cop
        DEL {p}cop
        SELECT 0
        INCR {p}ren
        OBJECT ENCODING {p}ren
        SET {p}e abc
        APPEND {p}e ""
        OBJECT ENCODING {p}e
        SET {p}e abc
        OBJECT ENCODING {p}e
        SETRANGE {p}e 0 ""
        OBJECT ENCODING {p}e
        SETRANGE {p}e 1 z
        OBJECT ENCODING {p}e
        GETSET {p}e 7
        OBJECT ENCODING {p}e
        SETRANGE {p}sr 2 ab
        OBJECT ENCODING {p}sr
        SETBIT {p}sb 3 1
        OBJECT ENCODING {p}sb
        SET {p}sb2 abc
        SETBIT {p}sb2 3 0
        OBJECT ENCODING {p}sb2
        BITFIELD {p}bf SET u8 0 97
        OBJECT ENCODING {p}bf
        SET {p}bf2 abc
        BITFIELD {p}bf2 GET u8 0
        OBJECT ENCODING {p}bf2
        BITFIELD_RO {p}bf2 GET u8 0
        OBJECT ENCODING {p}bf2
        BITOP NOT {p}bo {p}bf2
        OBJECT ENCODING {p}bo
        PFADD {p}hll a
        OBJECT ENCODING {p}hll
        PFMERGE {p}hll2 {p}hll
        OBJECT ENCODING {p}hll2
        INCRBYFLOAT {p}flt 1
        OBJECT ENCODING {p}flt
        OBJECT REFCOUNT {p}flt
        EXPIRE {p}flt 1000
        OBJECT ENCODING {p}flt
        PERSIST {p}flt
        RENAME {p}flt {p}flt2
        OBJECT ENCODING {p}flt2
        COPY {p}flt2 {p}flt3
        OBJECT ENCODING {p}flt3
        MOVE {p}flt3 1
        SELECT 1
        OBJECT ENCODING {p}flt3
        DEL {p}flt3
        SELECT 0
        INCRBYFLOAT {p}flt2 2.5
        OBJECT ENCODING {p}flt2
        INCR {p}flt
        INCRBYFLOAT {p}flt 1
        INCR {p}flt
        OBJECT ENCODING {p}flt
        INCRBYFLOAT {p}flt 1
        SET {p}flt 3
        OBJECT ENCODING {p}flt
        INCRBYFLOAT {p}flt 1
        SETBIT {p}flt 0 0
        OBJECT ENCODING {p}flt
        INCRBYFLOAT {p}fbig 1e50
        OBJECT ENCODING {p}fbig
        HINCRBYFLOAT {p}fh f 1
        OBJECT ENCODING {p}fh
        OBJECT REFCOUNT {p}counter
        SET {p}small 42
        OBJECT REFCOUNT {p}small
        OBJECT REFCOUNT {p}int
        OBJECT REFCOUNT {p}e44
        OBJECT ENCODING {p}missing
        OBJECT REFCOUNT {p}missing
        OBJECT IDLETIME {p}missing
        OBJECT FREQ {p}missing
        OBJECT FREQ {p}int
        OBJECT HELP
        OBJECT help extra
        OBJECT ENCODING
        OBJECT ENCODING a b
        OBJECT nosuch
        OBJECT
        CONFIG SET maxmemory-policy allkeys-lfu
        CONFIG GET maxmemory-policy
        SET {p}f v
        OBJECT FREQ {p}f
        EXISTS {p}f
        TYPE {p}f
        TTL {p}f
        OBJECT ENCODING {p}f
        OBJECT FREQ {p}f
        GET {p}f
        OBJECT FREQ {p}f
        OBJECT IDLETIME {p}f
        CONFIG SET maxmemory-policy ALLKEYS-LRU
        CONFIG GET maxmemory-policy
        CONFIG SET maxmemory 1gb
        SET {p}shared 7
        OBJECT REFCOUNT {p}shared
        OBJECT REFCOUNT {p}small
        INCR {p}counter
        OBJECT REFCOUNT {p}counter
        RENAME {p}small {p}small2
        OBJECT REFCOUNT {p}small2
        COPY {p}small2 {p}copy1
        OBJECT REFCOUNT {p}copy1
        MOVE {p}shared 1
        CONFIG SET maxmemory-policy noeviction
        OBJECT REFCOUNT {p}small2
        OBJECT REFCOUNT {p}counter
        SELECT 1
        OBJECT REFCOUNT {p}shared
        SELECT 0
        INCR {p}counter
        OBJECT REFCOUNT {p}counter
        COPY {p}small2 {p}copy2
        OBJECT REFCOUNT {p}copy2
        SET {p}shared2 8
        OBJECT REFCOUNT {p}shared2
        CONFIG SET maxmemory-policy allkeys-lfu
        OBJECT REFCOUNT {p}shared2
        CONFIG SET maxmemory-policy noeviction
        CONFIG SET maxmemory 1
        SET {p}refused v
        APPEND {p}int 1
        GET {p}int
        DEL {p}e44
        EXISTS {p}refused
        CONFIG SET maxmemory-policy sometimes
        CONFIG SET maxmemory-samples 0
        CONFIG SET maxmemory 0
        SET {p}accepted v
        CONFIG GET maxmemory
        CONFIG GET maxmemory-policy
        CONFIG GET maxmemory-samples
        CONFIG GET lfu-log-factor
        CONFIG GET lfu-decay-time
        """;

    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void memoryAndObjectRepliesAsRedisDoes(Target target) {
        Script script = Script.parse("memory", SCRIPT, "mem:");
        List<String> mismatches = new ArrayList<>();
        try (LacewingServer server = Servers.builder(target).start();
             RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(server.port())) {
            for (Script.Step step : script.steps()) {
                Script.Command command = (Script.Command) step;
                String expected = RespClient.text(reference.callBytes(command.arguments()));
                String actual = RespClient.text(lacewing.callBytes(command.arguments()));
                if (!expected.equals(actual)) {
                    mismatches.add(command.words() + "\n  redis:    " + expected.replace("\r\n", "\\r\\n")
                        + "\n  lacewing: " + actual.replace("\r\n", "\\r\\n"));
                }
            }
        }
        assertEquals(List.of(), mismatches, () -> String.join("\n", mismatches));
    }
}
