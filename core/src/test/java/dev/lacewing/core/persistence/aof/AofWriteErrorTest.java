package dev.lacewing.core.persistence.aof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.config.Config;
import dev.lacewing.core.persistence.BackgroundSave;
import dev.lacewing.core.persistence.Snapshots;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write to the AOF that fails, as flushAppendOnlyFile handles it: under everysec the server
 * refuses writes with Redis's MISCONF text until a write succeeds, and nothing appended is lost;
 * under always it exits with Redis's log line. The disk's failures are the test's.
 */
class AofWriteErrorTest {

    private static final String SET_A = "*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1\r\nv\r\n";

    @TempDir
    Path dir;

    private volatile boolean diskFull;
    /** The next write writes this many bytes, then fails; 0: none does. */
    private volatile int shortWrite;
    private final List<String> exits = new CopyOnWriteArrayList<>();
    private AppendOnlyFile aof;

    private AppendOnlyFile start(String fsync) throws IOException {
        Config config = new Config();
        config.set("dir", dir.toString());
        config.set("appendonly", "yes");
        config.set("appendfsync", fsync);
        Files.createDirectories(dir.resolve("appendonlydir"));
        new AofManifest(null, List.of()).write(dir.resolve("appendonlydir"), "appendonly.aof.manifest");
        Snapshots snapshots = new Snapshots(config, "7.0.15", () -> 0, () -> null);
        BackgroundSave backgroundSave = new BackgroundSave(config, snapshots, "7.0.15", () -> 0, () -> null);
        aof = new AppendOnlyFile(config, snapshots, backgroundSave, new AppendOnlyFile.IncrWrites() {
            @Override
            public void write(FileChannel file, ByteBuffer bytes) throws IOException {
                if (diskFull) {
                    throw new IOException("No space left on device");
                }
                if (shortWrite > 0) {
                    ByteBuffer part = bytes.duplicate();
                    part.limit(part.position() + shortWrite);
                    shortWrite = 0;
                    file.write(part);
                    bytes.position(part.position());
                    throw new IOException("No space left on device");
                }
                file.write(bytes);
            }

            @Override
            public void force(FileChannel file) throws IOException {
                file.force(false);
            }
        }, exits::add);
        aof.start(List.of(), null);
        return aof;
    }

    @AfterEach
    void stop() {
        diskFull = false;
        if (aof != null) {
            aof.close();
        }
    }

    private void appendSet() {
        AofBatch batch = new AofBatch();
        batch.add(0, new byte[][] {bytes("SET"), bytes("a"), bytes("v")});
        aof.append(batch);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** A connection's flush, on this thread as its event loop: the commit runs before it returns. */
    private void flush() {
        aof.afterCommit(0, Runnable::run, committed -> { });
    }

    private String incrFile() throws IOException {
        return Files.readString(dir.resolve("appendonlydir/appendonly.aof.1.incr.aof"), StandardCharsets.US_ASCII);
    }

    @Test
    void underEverysecWritesAreRefusedUntilTheAofCanBeWrittenAgainAndNothingIsLost() throws IOException {
        start("everysec");
        diskFull = true;
        appendSet();
        flush();
        assertEquals("MISCONF Errors writing to the AOF file: No space left on device", aof.refusal());

        diskFull = false;
        appendSet();
        flush();
        assertNull(aof.refusal());
        assertEquals("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n" + SET_A + SET_A, incrFile());
        assertTrue(exits.isEmpty());
    }

    @Test
    void aShortWriteIsTruncatedAwayAndItsBytesAreWrittenWholeWithTheNextOnes() throws IOException {
        start("everysec");
        appendSet();
        flush();
        shortWrite = 5;
        appendSet();
        flush();
        assertEquals("MISCONF Errors writing to the AOF file: No space left on device", aof.refusal());
        assertEquals("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n" + SET_A, incrFile());

        appendSet();
        flush();
        assertNull(aof.refusal());
        assertEquals("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n" + SET_A + SET_A + SET_A, incrFile());
        assertEquals(0, aof.bufferLength());
        assertTrue(exits.isEmpty());
    }

    @Test
    void underAlwaysAFailedWriteExitsAsRedisDoes() throws IOException {
        start("always");
        diskFull = true;
        appendSet();
        aof.close();
        assertEquals(List.of("Can't recover from AOF write error when the AOF fsync policy is 'always'. Exiting..."),
            exits);
    }
}
