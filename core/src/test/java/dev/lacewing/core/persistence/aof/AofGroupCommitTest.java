package dev.lacewing.core.persistence.aof;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * appendfsync always's group commit: no flush is released before the file is forced past its
 * write, and an event loop serves on while the file is forced. The file's force is held by the
 * test, in place of a slow disk.
 */
class AofGroupCommitTest {

    @TempDir
    Path dir;

    private final Semaphore forceMayEnd = new Semaphore(0);
    private final Semaphore forceStarted = new Semaphore(0);
    private final AtomicInteger forces = new AtomicInteger();
    private final AtomicLong writtenBytes = new AtomicLong();
    private final AtomicLong forcedBytes = new AtomicLong();
    private final ExecutorService loop = Executors.newSingleThreadExecutor();
    private AppendOnlyFile aof;

    @BeforeEach
    void start() throws IOException {
        Config config = new Config();
        config.set("dir", dir.toString());
        config.set("appendonly", "yes");
        config.set("appendfsync", "always");
        Files.createDirectories(dir.resolve("appendonlydir"));
        new AofManifest(null, List.of()).write(dir.resolve("appendonlydir"), "appendonly.aof.manifest");
        Snapshots snapshots = new Snapshots(config, "7.0.15", () -> 0, () -> null);
        BackgroundSave backgroundSave = new BackgroundSave(config, snapshots, "7.0.15", () -> 0, () -> null);
        aof = new AppendOnlyFile(config, snapshots, backgroundSave, new AppendOnlyFile.IncrWrites() {
            @Override
            public void write(FileChannel file, ByteBuffer bytes) throws IOException {
                writtenBytes.addAndGet(file.write(bytes));
            }

            @Override
            public void force(FileChannel file) throws IOException {
                forceStarted.release();
                forceMayEnd.acquireUninterruptibly();
                file.force(false);
                forces.incrementAndGet();
                forcedBytes.set(writtenBytes.get());
            }
        }, line -> {
            throw new AssertionError(line);
        });
        aof.start(List.of(), null);
    }

    @AfterEach
    void stop() {
        forceMayEnd.release(1000);
        aof.close();
        loop.shutdownNow();
    }

    private long appendSet(String key) {
        AofBatch batch = new AofBatch();
        batch.add(0, new byte[][] {bytes("SET"), bytes(key), bytes("v")});
        return aof.append(batch);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** Runs {@code then} on the loop with what it released, as a connection's flush does. */
    private void flushOnLoop(long offset, AtomicLong released, CountDownLatch done) throws InterruptedException {
        CountDownLatch handed = new CountDownLatch(1);
        loop.execute(() -> {
            aof.afterCommit(offset, loop, committed -> {
                released.set(committed);
                done.countDown();
            });
            handed.countDown();
        });
        assertTrue(handed.await(30, TimeUnit.SECONDS));
    }

    /** Every task the loop had, the flushes' hand-overs to the fsync thread included, ran. */
    private void loopIdle() throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        loop.execute(ran::countDown);
        assertTrue(ran.await(30, TimeUnit.SECONDS));
    }

    @Test
    void aReplyWaitsForTheForceThatCoversItsWriteWhileTheLoopServesOn() throws Exception {
        long first = appendSet("a");
        AtomicLong firstReleased = new AtomicLong(-1);
        CountDownLatch firstDone = new CountDownLatch(1);
        flushOnLoop(first, firstReleased, firstDone);
        assertTrue(forceStarted.tryAcquire(30, TimeUnit.SECONDS), "the first force began");

        // The disk is busy with the first force: the loop still runs the next commands' work.
        CountDownLatch loopServed = new CountDownLatch(1);
        loop.execute(loopServed::countDown);
        assertTrue(loopServed.await(10, TimeUnit.SECONDS), "the event loop waited for the disk");
        assertEquals(1, firstDone.getCount(), "a reply left before its write was forced");

        long second = appendSet("b");
        long third = appendSet("c");
        AtomicLong laterReleased = new AtomicLong(-1);
        CountDownLatch laterDone = new CountDownLatch(2);
        flushOnLoop(second, laterReleased, laterDone);
        flushOnLoop(third, laterReleased, laterDone);
        loopIdle();

        forceMayEnd.release();
        assertTrue(firstDone.await(30, TimeUnit.SECONDS));
        assertTrue(firstReleased.get() >= first);
        assertTrue(forcedBytes.get() >= first);
        assertEquals(2, laterDone.getCount(), "later writes were released by a force that began before them");

        // One more force covers both writes that came during the first.
        assertTrue(forceStarted.tryAcquire(30, TimeUnit.SECONDS), "the second force began");
        forceMayEnd.release();
        assertTrue(laterDone.await(30, TimeUnit.SECONDS));
        assertTrue(laterReleased.get() >= third);
        assertTrue(forcedBytes.get() >= third);
        assertEquals(2, forces.get());
    }

    /**
     * A read's reply on another connection, after a write appended but not yet forced, waits for
     * the force that covers that write, as Redis holds every reply of a pass behind the pass's
     * fsync; once the file is forced, replies leave at once (no barrier).
     */
    @Test
    void aReplyThatMayShowAnotherConnectionsWriteWaitsForItsForce() throws Exception {
        assertEquals(0, aof.replyBarrier(), "nothing appended, nothing to wait for");
        long write = appendSet("a");
        AtomicLong writerReleased = new AtomicLong(-1);
        CountDownLatch writerDone = new CountDownLatch(1);
        flushOnLoop(write, writerReleased, writerDone);
        assertTrue(forceStarted.tryAcquire(30, TimeUnit.SECONDS), "the force began");

        // The reader's GET ran after the write: its reply may show it.
        long barrier = aof.replyBarrier();
        assertEquals(write, barrier);
        AtomicLong readerReleased = new AtomicLong(-1);
        CountDownLatch readerDone = new CountDownLatch(1);
        flushOnLoop(barrier, readerReleased, readerDone);
        loopIdle();
        assertEquals(1, readerDone.getCount(), "a read's reply left before the write it may show was forced");

        forceMayEnd.release();
        assertTrue(readerDone.await(30, TimeUnit.SECONDS));
        assertTrue(writerDone.await(30, TimeUnit.SECONDS));
        assertTrue(forcedBytes.get() >= write);
        assertEquals(0, aof.replyBarrier(), "all forced: replies leave at once");
        assertEquals(1, forces.get(), "the reader shared the writer's force");
    }
}
