package dev.lacewing.core.persistence.aof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lacewing.api.Arguments;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a command puts in the AOF (Redis 7.0's propagated forms) and the manifest's syntax. */
class AofPropagationTest {

    private static final long NOW = 1_700_000_000_000L;

    private static Arguments args(String... words) {
        byte[][] argv = new byte[words.length][];
        int[] offsets = new int[words.length + 1];
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < words.length; i++) {
            offsets[i] = all.length();
            all.append(words[i]);
        }
        offsets[words.length] = all.length();
        byte[] bytes = all.toString().getBytes(StandardCharsets.ISO_8859_1);
        return new Arguments() {
            @Override
            public int count() {
                return words.length;
            }

            @Override
            public byte[] array() {
                return bytes;
            }

            @Override
            public int offset(int index) {
                return offsets[index];
            }

            @Override
            public int length(int index) {
                return offsets[index + 1] - offsets[index];
            }
        };
    }

    /** The batch as text, one request a line, arguments separated by spaces. */
    private static String propagated(String reply, String... command) {
        AofBatch batch = new AofBatch();
        AofPropagation.add(batch, 0, command[0].toLowerCase(java.util.Locale.ROOT), args(command), NOW,
            () -> reply.getBytes(StandardCharsets.ISO_8859_1));
        String resp = new String(batch.bytes(), 0, batch.isEmpty() ? 0 : batch.end(batch.count() - 1),
            StandardCharsets.ISO_8859_1);
        return resp.replaceAll("\\$\\d+\r\n", "").replaceAll("\\*\\d+\r\n", "\n").replace("\r\n", " ").strip();
    }

    @Test
    void aRequestIsWrittenInRespWithItsCountAndLengthsInDecimal() {
        String[] words = new String[12];
        words[0] = "RPUSH";
        words[1] = "";
        for (int i = 2; i < words.length; i++) {
            words[i] = "v".repeat(i == 11 ? 123_456 : i * 5);
        }
        AofBatch batch = new AofBatch();
        batch.add(0, args(words));
        StringBuilder expected = new StringBuilder("*12\r\n");
        for (String word : words) {
            expected.append('$').append(word.length()).append("\r\n").append(word).append("\r\n");
        }
        assertEquals(expected.toString(), new String(batch.bytes(), 0, batch.end(0), StandardCharsets.ISO_8859_1));
    }

    @Test
    void relativeTimesBecomeAbsolute() {
        assertEquals("SET k v PXAT 1700000010000", propagated("+OK\r\n", "SET", "k", "v", "EX", "10"));
        assertEquals("SET k v PXAT 1700000000010", propagated("+OK\r\n", "set", "k", "v", "px", "10"));
        assertEquals("SET k v PXAT 1700000000010", propagated("+OK\r\n", "PSETEX", "k", "10", "v"));
        assertEquals("SET k v PXAT 1700000010000", propagated("+OK\r\n", "SETEX", "k", "10", "v"));
        assertEquals("PEXPIREAT k 1700000010000", propagated(":1\r\n", "EXPIRE", "k", "10"));
        assertEquals("PEXPIREAT k 1700000000010 GT", propagated(":1\r\n", "PEXPIRE", "k", "10", "GT"));
        assertEquals("PEXPIREAT k 20000", propagated(":1\r\n", "EXPIREAT", "k", "20"));
        assertEquals("PEXPIREAT k 1700000010000", propagated("$1\r\nv\r\n", "GETEX", "k", "EX", "10"));
        assertEquals("PERSIST k", propagated("$1\r\nv\r\n", "GETEX", "k", "PERSIST"));
        assertEquals("", propagated("$1\r\nv\r\n", "GETEX", "k"));
        assertEquals("set k v", propagated("+OK\r\n", "set", "k", "v"));
    }

    @Test
    void aConditionalSetThatDidNotSetPropagatesNothing() {
        assertEquals("", propagated("$-1\r\n", "SET", "k", "v", "NX", "EX", "10"));
        assertEquals("SET k v PXAT 1700000010000", propagated("+OK\r\n", "SET", "k", "v", "XX", "EX", "10"));
        assertEquals("", propagated("$3\r\nold\r\n", "SET", "k", "v", "NX", "GET", "EX", "10"));
        assertEquals("SET k v PXAT 1700000010000", propagated("$3\r\nold\r\n", "SET", "k", "v", "XX", "GET", "EX",
            "10"));
        assertEquals("", propagated("_\r\n", "SET", "k", "v", "XX", "GET", "EX", "10"));
    }

    @Test
    void resultsTheReplayCouldNotRecomputeAreWrittenAsEffects() {
        assertEquals("SET f 3.5 KEEPTTL", propagated("$3\r\n3.5\r\n", "INCRBYFLOAT", "f", "1"));
        assertEquals("HSET h f 2.5", propagated("$3\r\n2.5\r\n", "HINCRBYFLOAT", "h", "f", "1"));
        assertEquals("SREM s a", propagated("$1\r\na\r\n", "SPOP", "s"));
        assertEquals("SREM s a b", propagated("*2\r\n$1\r\na\r\n$1\r\nb\r\n", "SPOP", "s", "2"));
        assertEquals("", propagated("$-1\r\n", "SPOP", "s"));
        assertEquals("LPOP l2", propagated("*2\r\n$2\r\nl2\r\n$1\r\nx\r\n", "BLPOP", "l1", "l2", "0"));
        assertEquals("RPOPLPUSH a b", propagated("$1\r\nx\r\n", "BRPOPLPUSH", "a", "b", "0"));
        assertEquals("RPOP l 2", propagated("*2\r\n$1\r\nl\r\n*2\r\n$1\r\nx\r\n$1\r\ny\r\n", "LMPOP", "1", "l", "RIGHT",
            "COUNT", "2"));
        assertEquals("ZPOPMAX z 1", propagated("*2\r\n$1\r\nz\r\n*1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n", "BZMPOP", "0",
            "1", "z", "MAX"));
        assertEquals("ZPOPMIN z", propagated("*3\r\n$1\r\nz\r\n$1\r\na\r\n$1\r\n1\r\n", "BZPOPMIN", "z", "0"));
        assertEquals("xadd s MAXLEN = 5 1-1 f v", propagated("$3\r\n1-1\r\n", "xadd", "s", "MAXLEN", "=", "5", "*", "f",
            "v"));
        assertEquals("", propagated("*-1\r\n", "BLPOP", "l", "0"));
    }

    @Test
    void theManifestReadsAndWritesRedisLines() {
        String text = "file appendonly.aof.3.base.rdb seq 3 type b\nfile appendonly.aof.5.incr.aof seq 5 type i\n"
            + "file appendonly.aof.6.incr.aof seq 6 type i\n";
        AofManifest manifest = AofManifest.parse(text);
        assertEquals(3, manifest.baseSeq());
        assertEquals(6, manifest.lastIncrSeq());
        assertEquals(List.of("appendonly.aof.5.incr.aof", "appendonly.aof.6.incr.aof"),
            manifest.incrs().stream().map(AofManifest.AofFile::name).toList());
        assertEquals(text, manifest.format());
        assertEquals("appendonly.aof.1.base.rdb",
            AofManifest.parse("seq 1 type b file appendonly.aof.1.base.rdb\n# comment\n").base().name());
        assertThrows(IllegalStateException.class, () -> AofManifest.parse("file a seq 1\n"));
        assertThrows(IllegalStateException.class,
            () -> AofManifest.parse("file a seq 2 type i\nfile b seq 1 type i\n"));
    }
}
