package dev.lacewing.it.server;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a concurrent atomicity test's writer from finishing before its readers have started: each
 * reader says when it has made a check, and the writer waits (at most 10 s) until every reader has
 * made one. On a loaded machine a fast writer could otherwise be done before a reader's thread ran,
 * leaving the reader nothing to check.
 */
public final class Overlap {

    private static final long WAIT_SECONDS = 10;

    private final CountDownLatch readers;

    public Overlap(int readers) {
        this.readers = new CountDownLatch(readers);
    }

    /** A reader has made a check; only its first call counts (a reader calls it once). */
    public void checked() {
        readers.countDown();
    }

    /** Waits, bounded, until every reader has made its first check. */
    public void awaitReaders() throws InterruptedException {
        readers.await(WAIT_SECONDS, TimeUnit.SECONDS);
    }
}
