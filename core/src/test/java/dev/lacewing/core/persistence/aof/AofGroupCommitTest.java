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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
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
 * write; the only event loop forces the file itself at the end of its iteration, as Redis's
 * beforeSleep does, and once several loops wait they hand their flushes to the fsync thread and
 * serve on. The file's force is held by the test, in place of a slow disk.
 */
class AofGroupCommitTest {

    @TempDir
    Path dir;

    private final Semaphore forceMayEnd = new Semaphore(0);
    private final Semaphore forceStarted = new Semaphore(0);
    private final AtomicInteger forces = new AtomicInteger();
    private final AtomicLong writtenBytes = new AtomicLong();
    private final AtomicLong forcedBytes = new AtomicLong();
    private final List<String> forcingThreads = new CopyOnWriteArrayList<>();
    private final ExecutorService loop = Executors.newSingleThreadExecutor(task -> new Thread(task, "loop"));
    private final ExecutorService otherLoop = Executors.newSingleThreadExecutor(task -> new Thread(task, "other-loop"));
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
                forcingThreads.add(Thread.currentThread().getName());
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
        otherLoop.shutdownNow();
    }

    private long appendSet(String key) {
        AofBatch batch = new AofBatch();
        batch.add(0, new byte[][] {bytes("SET"), bytes(key), bytes("v")});
        return aof.append(batch);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** Runs {@code then} on {@code on} with what it released, as a connection's flush does. */
    private void flushOn(Executor on, long offset, AtomicLong released, CountDownLatch done)
        throws InterruptedException {
        CountDownLatch handed = new CountDownLatch(1);
        on.execute(() -> {
            aof.afterCommit(offset, on, committed -> {
                released.set(committed);
                done.countDown();
            });
            handed.countDown();
        });
        assertTrue(handed.await(30, TimeUnit.SECONDS));
    }

    /**
     * {@link #flushOn} through the other loop ({@code on} runs its tasks there), once that loop has
     * served on past the flush, whether its release came or not.
     */
    private void flushOnTheOtherLoop(Executor on, long offset, AtomicLong released, CountDownLatch done)
        throws InterruptedException {
        flushOn(on, offset, released, done);
        idle(otherLoop);
    }

    /** Every task {@code on} had, the flushes' commits or hand-overs to the fsync thread included, ran. */
    private static void idle(Executor on) throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        on.execute(ran::countDown);
        assertTrue(ran.await(30, TimeUnit.SECONDS));
    }

    @Test
    void theLoopForcesItsIterationsWritesItselfBeforeReleasingItsReplies() throws Exception {
        long first = appendSet("a");
        AtomicLong firstReleased = new AtomicLong(-1);
        CountDownLatch firstDone = new CountDownLatch(1);
        flushOn(loop, first, firstReleased, firstDone);
        assertTrue(forceStarted.tryAcquire(30, TimeUnit.SECONDS), "the first force began");
        assertEquals(List.of("loop"), forcingThreads, "the loop forced the file itself, no thread hop");
        assertEquals(1, firstDone.getCount(), "a reply left before its write was forced");

        // A write appended while the file is forced waits for the next force.
        long second = appendSet("b");
        forceMayEnd.release();
        assertTrue(firstDone.await(30, TimeUnit.SECONDS));
        assertTrue(firstReleased.get() >= first && firstReleased.get() < second);
        assertTrue(forcedBytes.get() >= first);

        AtomicLong secondReleased = new AtomicLong(-1);
        CountDownLatch secondDone = new CountDownLatch(1);
        flushOn(loop, second, secondReleased, secondDone);
        assertTrue(forceStarted.tryAcquire(30, TimeUnit.SECONDS), "the second force began");
        assertEquals(1, secondDone.getCount(), "a reply left before its write was forced");
        forceMayEnd.release();
        assertTrue(secondDone.await(30, TimeUnit.SECONDS));
        assertTrue(secondReleased.get() >= second);
        assertTrue(forcedBytes.get() >= second);
        assertEquals(2, forces.get());
    }

    @Test
    void onceSeveralLoopsWaitTheFsyncThreadForcesForThemWhileTheyServeOnAndReleasesOnceForEachLoop() throws Exception {
        long first = appendSet("a");
        AtomicLong firstReleased = new AtomicLong(-1);
        CountDownLatch firstDone = new CountDownLatch(1);
        flushOn(loop, first, firstReleased, firstDone);
        assertTrue(forceStarted.tryAcquire(30, TimeUnit.SECONDS), "the first loop's force began");

        // A second loop waits for the file: its flush goes to the fsync thread and it serves on.
        AtomicInteger releasesFromTheFsyncThread = new AtomicInteger();
        Executor other = task -> {
            if (Thread.currentThread().getName().equals("aof-fsync")) {
                releasesFromTheFsyncThread.incrementAndGet();
            }
            otherLoop.execute(task);
        };
        long second = appendSet("b");
        AtomicLong otherReleased = new AtomicLong(-1);
        CountDownLatch secondDone = new CountDownLatch(1);
        flushOnTheOtherLoop(other, second, otherReleased, secondDone);
        assertEquals(1, secondDone.getCount(), "a reply left before its write was forced");

        forceMayEnd.release();
        assertTrue(firstDone.await(30, TimeUnit.SECONDS));
        assertTrue(forceStarted.tryAcquire(30, TimeUnit.SECONDS), "the fsync thread's force began");
        assertEquals(List.of("loop", "aof-fsync"), forcingThreads);

        // Two more iterations of the other loop while the fsync thread forces: they wait for its next
        // round, and both are released by one task on their loop.
        long third = appendSet("c");
        long fourth = appendSet("d");
        CountDownLatch laterDone = new CountDownLatch(2);
        flushOnTheOtherLoop(other, third, otherReleased, laterDone);
        flushOnTheOtherLoop(other, fourth, otherReleased, laterDone);
        forceMayEnd.release();
        assertTrue(secondDone.await(30, TimeUnit.SECONDS));
        assertEquals(2, laterDone.getCount(), "later writes were released by a force that began before them");
        assertTrue(forceStarted.tryAcquire(30, TimeUnit.SECONDS), "the fsync thread's next force began");
        forceMayEnd.release();
        assertTrue(laterDone.await(30, TimeUnit.SECONDS));
        assertTrue(otherReleased.get() >= fourth);
        assertTrue(forcedBytes.get() >= fourth);
        assertEquals(3, forces.get());
        assertEquals(2, releasesFromTheFsyncThread.get(), "one release task per loop per force");
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
        flushOn(loop, write, writerReleased, writerDone);
        assertTrue(forceStarted.tryAcquire(30, TimeUnit.SECONDS), "the force began");

        // The reader's GET ran after the write, on another loop: its reply may show it.
        long barrier = aof.replyBarrier();
        assertEquals(write, barrier);
        AtomicLong readerReleased = new AtomicLong(-1);
        CountDownLatch readerDone = new CountDownLatch(1);
        flushOnTheOtherLoop(otherLoop, barrier, readerReleased, readerDone);
        assertEquals(1, readerDone.getCount(), "a read's reply left before the write it may show was forced");

        forceMayEnd.release();
        assertTrue(readerDone.await(30, TimeUnit.SECONDS));
        assertTrue(writerDone.await(30, TimeUnit.SECONDS));
        assertTrue(forcedBytes.get() >= write);
        assertEquals(0, aof.replyBarrier(), "all forced: replies leave at once");
        assertEquals(1, forces.get(), "the reader shared the writer's force");
    }
}
