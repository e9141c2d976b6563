package dev.lacewing.transport.iouring;

import dev.lacewing.api.FileReads;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.uring.IoUringIoEvent;
import io.netty.channel.uring.IoUringIoHandle;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringIoOps;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * File reads through io_uring: one event loop of their own (not the connections' loops, whose
 * latency a burst of cold reads would otherwise share) submits {@code IORING_OP_OPENAT} and
 * {@code IORING_OP_READ} into Netty direct buffers and completes each read on that loop's thread,
 * after copying the bytes out. The loop starts with the first open file and stops when the last
 * one closed, so a server whose storage reads no file holds no thread for it.
 *
 * <p>Thread rule: {@link #open}, a file's read and close from any thread; {@link #pending},
 * {@link #free} and the buffers only on the loop; the loop's start and stop under this object's lock.
 * A file's descriptor is closed on the loop once it is closed and no read on it is in flight, so
 * that a descriptor number is never reused while the kernel may still read through it.
 */
final class IoUringFileReads implements FileReads {

    /** Reads in flight at most; past it a read is refused and the storage reads another way. */
    static final int MAX_IN_FLIGHT = 1024;
    private static final byte IORING_OP_OPENAT = 18;
    private static final byte IORING_OP_READ = 22;
    private static final int AT_FDCWD = -100;
    private static final int O_RDONLY_CLOEXEC = 0x80000;
    /** The slot an open's completion comes back under: read slots are 0 .. MAX_IN_FLIGHT - 1. */
    private static final short OPEN_SLOT = Short.MAX_VALUE;

    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong completedReads = new AtomicLong();
    private final PendingRead[] pending = new PendingRead[MAX_IN_FLIGHT];
    private final int[] free = new int[MAX_IN_FLIGHT];
    private int freeCount;
    /** The open waiting for its descriptor (opens run one at a time, under {@link #opening}). */
    private CompletableFuture<Integer> opened;
    private final Object opening = new Object();

    private MultiThreadIoEventLoopGroup group;
    private IoEventLoop loop;
    private IoRegistration registration;
    private int openFiles;

    IoUringFileReads() {
        for (int i = 0; i < MAX_IN_FLIGHT; i++) {
            free[i] = MAX_IN_FLIGHT - 1 - i;
        }
        freeCount = MAX_IN_FLIGHT;
    }

    @Override
    public String name() {
        return "io_uring";
    }

    /** Reads completed (successfully or not) since this object was made. */
    long completedReads() {
        return completedReads.get();
    }

    @Override
    public ReadableFile open(Path path) throws IOException {
        IoEventLoop loop = retain();
        boolean open = false;
        try {
            int fd = openAt(loop, path);
            open = true;
            return new File(loop, fd);
        } finally {
            if (!open) {
                release();
            }
        }
    }

    private int openAt(IoEventLoop loop, Path path) throws IOException {
        byte[] name = path.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8);
        synchronized (opening) {
            CompletableFuture<Integer> result = new CompletableFuture<>();
            ByteBuf cName = PooledByteBufAllocator.DEFAULT.directBuffer(name.length + 1);
            try {
                cName.writeBytes(name).writeByte(0);
                loop.execute(() -> {
                    opened = result;
                    long id = registration.submit(new IoUringIoOps(IORING_OP_OPENAT, (byte) 0, (short) 0, AT_FDCWD,
                        0L, cName.memoryAddress(), 0, O_RDONLY_CLOEXEC, OPEN_SLOT, (short) 0, (short) 0, 0, 0L));
                    if (id == -1) {
                        result.completeExceptionally(new IOException("io_uring refused to open " + path));
                    }
                });
                int fd = result.get();
                if (fd < 0) {
                    throw new IOException("io_uring cannot open " + path + ": errno " + -fd);
                }
                return fd;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted opening " + path, e);
            } catch (ExecutionException e) {
                throw new IOException("io_uring cannot open " + path, e.getCause());
            } finally {
                cName.release();
            }
        }
    }

    /** One more open file; starts the loop for the first. */
    private synchronized IoEventLoop retain() {
        if (openFiles++ == 0) {
            group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("lacewing-file-read", true),
                IoUringIoHandler.newFactory());
            loop = (IoEventLoop) group.next();
            registration = loop.register(new Completions()).syncUninterruptibly().getNow();
        }
        return loop;
    }

    /** One file fewer; stops the loop after the last (nothing is in flight by then). */
    private synchronized void release() {
        if (--openFiles == 0) {
            IoRegistration ending = registration;
            loop.execute(ending::cancel);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            group = null;
            loop = null;
            registration = null;
        }
    }

    /** A read under way: its file, where it reads to, how far it got. */
    private static final class PendingRead {
        final File file;
        final long offset;
        final byte[] destination;
        final ReadCompletion completion;
        final ByteBuf buffer;
        int done;

        PendingRead(File file, long offset, byte[] destination, ReadCompletion completion, ByteBuf buffer) {
            this.file = file;
            this.offset = offset;
            this.destination = destination;
            this.completion = completion;
            this.buffer = buffer;
        }
    }

    /** Runs on the loop: takes a slot and submits the first read of it. */
    private void start(File file, long offset, byte[] destination, ReadCompletion completion) {
        int slot = free[--freeCount];
        ByteBuf buffer = PooledByteBufAllocator.DEFAULT.directBuffer(Math.max(1, destination.length));
        PendingRead read = new PendingRead(file, offset, destination, completion, buffer);
        pending[slot] = read;
        if (destination.length == 0) {
            finish(slot, null);
        } else {
            submit(slot, read);
        }
    }

    private void submit(int slot, PendingRead read) {
        long id = registration.submit(new IoUringIoOps(IORING_OP_READ, (byte) 0, (short) 0, read.file.fd,
            read.offset + read.done, read.buffer.memoryAddress() + read.done, read.destination.length - read.done, 0,
            (short) slot, (short) 0, (short) 0, 0, 0L));
        if (id == -1) {
            finish(slot, new IOException("io_uring refused a read"));
        }
    }

    /** Runs on the loop: hands a read's outcome over and gives its slot, buffer and file back. */
    private void finish(int slot, IOException failure) {
        PendingRead read = pending[slot];
        pending[slot] = null;
        free[freeCount++] = slot;
        if (failure == null) {
            read.buffer.getBytes(0, read.destination);
        }
        read.buffer.release();
        inFlight.decrementAndGet();
        completedReads.incrementAndGet();
        try {
            read.completion.completed(failure);
        } finally {
            read.file.unuse();
        }
    }

    /** The loop's handle: every open and read of these file reads completes here. */
    private final class Completions implements IoUringIoHandle {

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            IoUringIoEvent completion = (IoUringIoEvent) event;
            int result = completion.res();
            short slot = completion.data();
            if (completion.opcode() == IORING_OP_OPENAT && slot == OPEN_SLOT) {
                opened.complete(result);
                return;
            }
            if (completion.opcode() != IORING_OP_READ || slot < 0 || slot >= MAX_IN_FLIGHT || pending[slot] == null) {
                return;
            }
            PendingRead read = pending[slot];
            if (result < 0) {
                finish(slot, new IOException("io_uring read failed: errno " + -result));
            } else if (result == 0) {
                finish(slot, new IOException("read past the end of the file"));
            } else {
                read.done += result;
                if (read.done < read.destination.length) {
                    submit(slot, read);
                } else {
                    finish(slot, null);
                }
            }
        }

        @Override
        public void close() {
        }
    }

    /**
     * An open file: its descriptor is in use by the open reference and by each read in flight, and
     * is closed on the loop when the last use ends.
     */
    private final class File implements ReadableFile {

        private final IoEventLoop loop;
        private final int fd;
        /** 1 for the open reference plus 1 per read in flight; 0 once closed. */
        private final AtomicInteger uses = new AtomicInteger(1);
        private final AtomicBoolean closed = new AtomicBoolean();

        File(IoEventLoop loop, int fd) {
            this.loop = loop;
            this.fd = fd;
        }

        @Override
        public boolean read(long offset, byte[] destination, ReadCompletion completion) {
            if (closed.get()) {
                return false;
            }
            if (inFlight.incrementAndGet() > MAX_IN_FLIGHT) {
                inFlight.decrementAndGet();
                return false;
            }
            int now;
            do {
                now = uses.get();
                if (now == 0) {
                    inFlight.decrementAndGet();
                    return false;
                }
            } while (!uses.compareAndSet(now, now + 1));
            loop.execute(() -> start(this, offset, destination, completion));
            return true;
        }

        void unuse() {
            if (uses.decrementAndGet() == 0) {
                if (loop.inEventLoop()) {
                    closeDescriptor();
                } else {
                    loop.execute(this::closeDescriptor);
                }
            }
        }

        private void closeDescriptor() {
            try {
                new FileDescriptor(fd).close();
            } catch (IOException e) {
                // Closing a read-only descriptor loses nothing; the number is free either way.
            } finally {
                IoUringFileReads.this.release();
            }
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                unuse();
            }
        }
    }
}
