package dev.lacewing.transport.iouring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lacewing.api.FileReads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoUringFileReadsTest {

    @TempDir
    Path directory;

    @BeforeAll
    static void ioUringRuns() {
        assumeTrue(new IoUringTransport().unavailabilityCause().isEmpty(), "io_uring is not available here");
    }

    private Path fileOf(byte[] content) throws IOException {
        return Files.write(directory.resolve("segment"), content);
    }

    private static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** Reads and waits; the failure, or null. */
    private static IOException readAndWait(FileReads.ReadableFile file, long offset, byte[] destination)
        throws Exception {
        CompletableFuture<IOException> done = new CompletableFuture<>();
        assertTrue(file.read(offset, destination, failure -> done.complete(failure)));
        return done.get(10, TimeUnit.SECONDS);
    }

    @Test
    void readsExactlyTheBytesOfAnExtentOnTheReadLoopThread() throws Exception {
        byte[] content = randomBytes(1 << 20, 1);
        IoUringFileReads reads = new IoUringFileReads();
        try (FileReads.ReadableFile file = reads.open(fileOf(content))) {
            byte[] value = new byte[4096];
            CompletableFuture<String> thread = new CompletableFuture<>();
            assertTrue(file.read(12345, value, failure -> thread.complete(
                failure == null ? Thread.currentThread().getName() : String.valueOf(failure))));
            assertTrue(thread.get(10, TimeUnit.SECONDS).startsWith("lacewing-file-read"), thread.get());
            assertArrayEquals(Arrays.copyOfRange(content, 12345, 12345 + 4096), value);

            byte[] whole = new byte[content.length];
            assertNull(readAndWait(file, 0, whole));
            assertArrayEquals(content, whole);
        }
        assertEquals(2, reads.completedReads());
    }

    @Test
    void concurrentReadersEachGetTheirOwnExtent() throws Exception {
        byte[] content = randomBytes(4 << 20, 2);
        IoUringFileReads reads = new IoUringFileReads();
        try (FileReads.ReadableFile file = reads.open(fileOf(content))) {
            int threads = 4;
            int readsPerThread = 2000;
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            CountDownLatch completed = new CountDownLatch(threads * readsPerThread);
            List<Thread> readers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = t;
                Thread reader = new Thread(() -> {
                    Random random = new Random(seed);
                    for (int i = 0; i < readsPerThread; i++) {
                        int length = 1 + random.nextInt(3000);
                        int offset = random.nextInt(content.length - length);
                        byte[] value = new byte[length];
                        boolean started = file.read(offset, value, failure -> {
                            if (failure != null) {
                                problems.add(String.valueOf(failure));
                            } else if (!Arrays.equals(value, Arrays.copyOfRange(content, offset, offset + length))) {
                                problems.add("wrong bytes at " + offset);
                            }
                            completed.countDown();
                        });
                        if (!started) {
                            completed.countDown();
                        }
                    }
                });
                readers.add(reader);
                reader.start();
            }
            for (Thread reader : readers) {
                reader.join();
            }
            assertTrue(completed.await(30, TimeUnit.SECONDS));
            assertTrue(problems.isEmpty(), problems::toString);
            assertTrue(reads.completedReads() > 0);
        }
    }

    @Test
    void aReadPastTheEndOfTheFileFailsAndCompletesOnce() throws Exception {
        IoUringFileReads reads = new IoUringFileReads();
        try (FileReads.ReadableFile file = reads.open(fileOf(randomBytes(100, 3)))) {
            CountDownLatch calls = new CountDownLatch(2);
            CompletableFuture<IOException> done = new CompletableFuture<>();
            assertTrue(file.read(50, new byte[100], failure -> {
                done.complete(failure);
                calls.countDown();
            }));
            assertNotNull(done.get(10, TimeUnit.SECONDS));
            assertFalse(calls.await(200, TimeUnit.MILLISECONDS), "the completion ran twice");
            assertNotNull(readAndWait(file, 1000, new byte[1]));
            assertNull(readAndWait(file, 0, new byte[100]));
        }
    }

    @Test
    void aMissingFileIsNotOpenedAndAClosedFileStartsNoRead() throws Exception {
        IoUringFileReads reads = new IoUringFileReads();
        assertThrows(IOException.class, () -> reads.open(directory.resolve("missing")));
        FileReads.ReadableFile file = reads.open(fileOf(randomBytes(10, 4)));
        file.close();
        assertFalse(file.read(0, new byte[1], failure -> { }));
    }

    @Test
    void aFileClosedWithReadsInFlightStillCompletesThemAndTheLoopStartsAgain() throws Exception {
        byte[] content = randomBytes(1 << 16, 5);
        IoUringFileReads reads = new IoUringFileReads();
        Path path = fileOf(content);
        FileReads.ReadableFile file = reads.open(path);
        List<CompletableFuture<IOException>> all = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            CompletableFuture<IOException> done = new CompletableFuture<>();
            assertTrue(file.read(i * 10L, new byte[500], done::complete));
            all.add(done);
        }
        file.close();
        for (CompletableFuture<IOException> done : all) {
            assertNull(done.get(10, TimeUnit.SECONDS));
        }
        try (FileReads.ReadableFile again = reads.open(path)) {
            byte[] value = new byte[10];
            assertNull(readAndWait(again, 0, value));
            assertArrayEquals(Arrays.copyOf(content, 10), value);
        }
    }
}
