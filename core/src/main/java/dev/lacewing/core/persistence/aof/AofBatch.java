package dev.lacewing.core.persistence.aof;

import dev.lacewing.api.Arguments;
import java.util.Arrays;

/**
 * The commands one client command propagates (Redis's server.also_propagate): usually one, several
 * for EXEC and for a script, each as its RESP request and the database it ran in. Encoded once,
 * here, so that {@link AppendOnlyFile#append} only copies bytes under its lock.
 *
 * <p>Thread rule: owned by one connection and touched only by the thread running that
 * connection's command; reused after each append.
 */
public final class AofBatch {

    private byte[] bytes = new byte[256];
    private int size;
    private int[] databases = new int[4];
    private int[] ends = new int[4];
    private int count;
    // The running command propagates what it added itself, not its request (preventCommandPropagation).
    private boolean ownPrevented;

    /** Nothing to append, and no command's own propagation prevented. */
    public boolean isEmpty() {
        return count == 0 && !ownPrevented;
    }

    void preventOwn() {
        ownPrevented = true;
    }

    /** Whether the command's own propagation was prevented; consumes it. */
    boolean takeOwnPrevented() {
        boolean prevented = ownPrevented;
        ownPrevented = false;
        return prevented;
    }

    int count() {
        return count;
    }

    int database(int index) {
        return databases[index];
    }

    int start(int index) {
        return index == 0 ? 0 : ends[index - 1];
    }

    int end(int index) {
        return ends[index];
    }

    byte[] bytes() {
        return bytes;
    }

    /** Empties it; a buffer grown past 64 KiB by one large command goes back to its first size. */
    public void clear() {
        if (bytes.length > 64 * 1024) {
            bytes = new byte[256];
        }
        size = 0;
        count = 0;
        ownPrevented = false;
    }

    /** The request as the client sent it. */
    public void add(int database, Arguments args) {
        header(args.count());
        for (int i = 0; i < args.count(); i++) {
            bulk(args.array(), args.offset(i), args.length(i));
        }
        finish(database);
    }

    /** A request rewritten the way Redis propagates it. */
    public void add(int database, byte[][] argv) {
        header(argv.length);
        for (byte[] arg : argv) {
            bulk(arg, 0, arg.length);
        }
        finish(database);
    }

    private void header(int arguments) {
        ascii('*', arguments);
    }

    private void bulk(byte[] array, int offset, int length) {
        ascii('$', length);
        ensure(length + 2);
        System.arraycopy(array, offset, bytes, size, length);
        size += length;
        bytes[size++] = '\r';
        bytes[size++] = '\n';
    }

    /** {@code prefix}, {@code number} (a count or a length, not negative) in decimal, CRLF; allocates nothing. */
    private void ascii(char prefix, int number) {
        int digits = 1;
        for (int rest = number / 10; rest > 0; rest /= 10) {
            digits++;
        }
        ensure(digits + 3);
        bytes[size++] = (byte) prefix;
        int rest = number;
        for (int at = size + digits - 1; at >= size; at--) {
            bytes[at] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        size += digits;
        bytes[size++] = '\r';
        bytes[size++] = '\n';
    }

    private void finish(int database) {
        if (count == ends.length) {
            ends = Arrays.copyOf(ends, count * 2);
            databases = Arrays.copyOf(databases, count * 2);
        }
        databases[count] = database;
        ends[count++] = size;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
