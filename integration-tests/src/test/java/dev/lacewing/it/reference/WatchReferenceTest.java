package dev.lacewing.it.reference;

import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which writes break a WATCH, against redis-server 7.0 on every target: Redis flags a watched key
 * (signalModifiedKey) only when a command changed it, so a write that changes nothing (DEL of a
 * missing key, SREM of a missing member, ZADD XX of a missing member...) leaves the EXEC to run,
 * while some that look like no-ops (LTRIM over the whole list, APPEND of nothing, INCRBY 0) still
 * break it. Each case: its set-up, WATCH, the write, then MULTI / PING / EXEC, whose reply (the
 * PONG, or a null array) is compared. The keys {p}k and {p}d fall on any shards, so the gathered
 * cross-shard forms (SMOVE, LMOVE, the STORE forms) are covered too.
 */
class WatchReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    /**
     * Each case: set-up lines, then the write; {@code {p}k} is watched (after the set-up) unless a
     * set-up line is a WATCH of its own.
     */
    private static final List<String> CASES = List.of(
        // keys
        "DEL {p}k",
        "SET {p}k v\nDEL {p}k",
        "UNLINK {p}k",
        "EXPIRE {p}k 100",
        "PEXPIREAT {p}k 99999999999999",
        "SET {p}k v EX 100\nEXPIRE {p}k 200 NX",
        "SET {p}k v\nEXPIRE {p}k 200 GT",
        "SET {p}k v\nEXPIRE {p}k 200",
        "SET {p}k v\nPERSIST {p}k",
        "SET {p}k v EX 100\nPERSIST {p}k",
        "SET {p}k v\nRENAME {p}k {p}k",
        "SET {p}k v\nRENAMENX {p}k {p}k",
        "RENAME {p}k {p}d",
        "SET {p}k v\nSET {p}d w\nRENAMENX {p}d {p}k",
        "SET {p}k v\nSET {p}d w\nRENAME {p}d {p}k",
        "SET {p}k v\nSET {p}d w\nCOPY {p}d {p}k",
        "SET {p}k v\nCOPY {p}d {p}k",
        "MOVE {p}k 1",
        "SORT {p}d STORE {p}k",
        "SET {p}k v\nSORT {p}d STORE {p}k",
        // strings
        "SET {p}k v\nSET {p}k w NX",
        "SET {p}k w XX",
        "SET {p}k v\nSETNX {p}k w",
        "SET {p}d v\nMSETNX {p}k 1 {p}d 2",
        "SETRANGE {p}k 0 \"\"",
        "SET {p}k v\nSETRANGE {p}k 0 \"\"",
        "SET {p}k v\nSETRANGE {p}k 0 v",
        "SET {p}k v\nAPPEND {p}k \"\"",
        "SET {p}k 1\nINCRBY {p}k 0",
        "SET {p}k v\nINCR {p}k",
        "GETDEL {p}k",
        "SET {p}k v\nGETEX {p}k",
        "SET {p}k v\nGETEX {p}k PERSIST",
        "SET {p}k v EX 100\nGETEX {p}k PERSIST",
        "SET {p}k v\nSETBIT {p}k 0 2",
        "SETBIT {p}k 0 0",
        // An unchanged bit only unshares the string (dbUnshareStringValue): no signal, embstr, int or raw.
        "SET {p}k v\nSETBIT {p}k 0 0",
        "SET {p}k 1\nSETBIT {p}k 0 0",
        "SET {p}k v\nAPPEND {p}k w\nSETBIT {p}k 0 0",
        "SET {p}k v\nSETBIT {p}k 0 1",
        "SET {p}k v\nBITFIELD {p}k SET u8 0 118",
        "SET {p}k v\nBITFIELD {p}k SET u8 0 119",
        "SET {p}k v\nBITFIELD {p}k OVERFLOW FAIL INCRBY u8 0 200",
        "BITFIELD {p}k OVERFLOW FAIL INCRBY u8 0 300",
        "XGROUP CREATE {p}k g $ MKSTREAM",
        "BITOP OR {p}k {p}d",
        "BITFIELD {p}k GET u8 0",
        "BITFIELD {p}k SET u8 0 0",
        "PFADD {p}k a\nPFADD {p}k a",
        "PFADD {p}k a\nPFCOUNT {p}k",
        "PFADD {p}d a\nPFMERGE {p}k {p}d",
        // lists
        "LPUSHX {p}k a",
        "RPUSHX {p}k a",
        "LPOP {p}k",
        "RPUSH {p}k a\nLREM {p}k 0 b",
        "RPUSH {p}k a\nLTRIM {p}k 0 -1",
        "LMOVE {p}d {p}k LEFT LEFT",
        "RPUSH {p}k a\nLMOVE {p}k {p}d LEFT LEFT",
        "RPUSH {p}k a\nLINSERT {p}k BEFORE b c",
        "RPUSH {p}k a\nLSET {p}k 0 a",
        "LMPOP 1 {p}k LEFT",
        "SET {p}k v\nLPUSH {p}k a",
        // hashes
        "HSET {p}k f v\nHDEL {p}k g",
        "HDEL {p}k g",
        "HSET {p}k f v\nHSETNX {p}k f w",
        "HSET {p}k f v\nHSET {p}k f v",
        "HSET {p}k f 1\nHINCRBY {p}k f 0",
        // sets
        "SADD {p}k a\nSREM {p}k b",
        "SREM {p}k b",
        "SADD {p}k a\nSADD {p}k a",
        "SADD {p}k a\nSMOVE {p}k {p}d b",
        "SADD {p}k a\nWATCH {p}d\nSMOVE {p}k {p}d b",
        "SADD {p}k a\nSMOVE {p}k {p}k a",
        "SADD {p}k a\nSADD {p}d a\nWATCH {p}d\nSMOVE {p}k {p}d a",
        "SPOP {p}k",
        "SINTERSTORE {p}k {p}d",
        "SUNIONSTORE {p}k {p}d",
        "SET {p}k x\nSDIFFSTORE {p}k {p}d",
        // sorted sets
        "ZADD {p}k XX 1 a",
        "ZADD {p}k 1 a\nZADD {p}k NX 2 a",
        "ZADD {p}k 1 a\nZADD {p}k 1 a",
        "ZADD {p}k 1 a\nZADD {p}k 2 a",
        "ZADD {p}k 1 a\nZADD {p}k GT 0 a",
        "ZADD {p}k 1 a\nZREM {p}k b",
        "ZADD {p}k 1 a\nZREMRANGEBYSCORE {p}k 5 6",
        "ZADD {p}k 1 a\nZREMRANGEBYRANK {p}k 5 6",
        "ZADD {p}k 1 a\nZREMRANGEBYLEX {p}k [x [y",
        "ZPOPMIN {p}k",
        "ZADD {p}k 1 a\nZINCRBY {p}k 0 a",
        "ZUNIONSTORE {p}k 1 {p}d",
        "ZRANGESTORE {p}k {p}d 0 -1",
        "ZMPOP 1 {p}k MIN",
        // streams
        "XADD {p}k 1-1 f v\nXDEL {p}k 2-2",
        "XADD {p}k 1-1 f v\nXTRIM {p}k MAXLEN 10",
        "XADD {p}k 1-1 f v\nXGROUP CREATE {p}k g 0",
        "XADD {p}k 1-1 f v\nXGROUP CREATE {p}k g 0\nXACK {p}k g 1-1",
        "XADD {p}k 1-1 f v\nXGROUP CREATE {p}k g 0\nXGROUP DELCONSUMER {p}k g nobody",
        "XADD {p}k 1-1 f v\nXGROUP CREATE {p}k g 0\nXGROUP CREATECONSUMER {p}k g c",
        "XADD {p}k 1-1 f v\nXSETID {p}k 1-1",
        "XADD {p}k 1-1 f v\nXSETID {p}k 5-5",
        "XADD {p}k 1-1 f v\nXTRIM {p}k MAXLEN 0",
        "XADD {p}k 1-1 f v\nXGROUP CREATE {p}k g 0\nXGROUP SETID {p}k g 1-1",
        "XADD {p}k 1-1 f v\nXGROUP CREATE {p}k g 0\nXGROUP DESTROY {p}k g",
        "XADD {p}k 1-1 f v\nXGROUP CREATE {p}k g 0\nXREADGROUP GROUP g c COUNT 1 STREAMS {p}k >\nXACK {p}k g 1-1",
        "XADD {p}k 1-1 f v\nXGROUP CREATE {p}k g 0\nXREADGROUP GROUP g c COUNT 1 STREAMS {p}k >\nXCLAIM {p}k g c2 0 1-1",
        "XADD {p}k 1-1 f v\nXGROUP CREATE {p}k g 0\nXREADGROUP GROUP g c COUNT 1 STREAMS {p}k >\nXAUTOCLAIM {p}k g c2 0 0",
        "XADD {p}k 1-1 f v\nXGROUP CREATE {p}k g 0\nXREADGROUP GROUP g c COUNT 1 STREAMS {p}k >",
        // geo
        "GEOADD {p}k XX 13 38 a",
        "GEOADD {p}k 13 38 a\nGEOADD {p}k 13 38 a");

    /** Every case, set up, watched, written, then checked by EXEC, and its keys deleted. */
    static String script() {
        StringBuilder text = new StringBuilder();
        for (String testCase : CASES) {
            List<String> lines = new ArrayList<>(List.of(testCase.split("\n")));
            String write = lines.remove(lines.size() - 1);
            boolean watches = lines.stream().anyMatch(line -> line.startsWith("WATCH"));
            lines.forEach(line -> text.append(line).append('\n'));
            if (!watches) {
                text.append("WATCH {p}k\n");
            }
            text.append(write).append("\nMULTI\nPING\nEXEC\nDEL {p}k {p}d\n");
        }
        return text.toString();
    }

    static Stream<Arguments> scripts() {
        return ScriptComparison.onEveryTarget(List.of(
            new String[] {"watch-resp2", script()},
            new String[] {"watch-resp3", "HELLO 3\n" + script()}));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scripts")
    void onlyAWriteThatChangedTheKeyBreaksAWatch(Target target, String name, String text) {
        ScriptComparison.assertSameReplies(Script.parse(name, text, "watch" + RUNS.incrementAndGet() + ":"),
            redis.port(), target);
    }
}
