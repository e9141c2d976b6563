package dev.lacewing.core.diagnostics;

import dev.lacewing.api.Arguments;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Redis's slow log (slowlog.c): the most recent commands that ran at least
 * {@code slowlog-log-slower-than} microseconds, newest first, at most {@code slowlog-max-len} of
 * them. Entries keep at most 32 arguments and 128 bytes of each, as Redis 7.0 does.
 *
 * <p>Thread rule: any thread. Commands run on every worker, so entries go into a lock-free deque;
 * its size is a counter of its own, which a push raises and a trim lowers before it removes, so
 * that concurrent pushes never trim more than the excess. The settings are one volatile threshold
 * ({@link #slowerThan}): while nothing is slow the cost of a command is one comparison.
 */
public final class SlowLog {

    /** Redis's SLOWLOG_ENTRY_MAX_ARGC and SLOWLOG_ENTRY_MAX_STRING. */
    static final int MAX_ARGUMENTS = 32;
    static final int MAX_ARGUMENT_BYTES = 128;

    /** The argument Redis logs in place of a secret (AUTH's password, CONFIG SET requirepass's value). */
    public static final byte[] REDACTED = "(redacted)".getBytes(StandardCharsets.US_ASCII);

    /** One logged command, as SLOWLOG GET replies it. */
    public record Entry(long id, long unixSeconds, long micros, List<byte[]> arguments, String peer, String clientName) {
    }

    private final ConcurrentLinkedDeque<Entry> entries = new ConcurrentLinkedDeque<>();
    private final AtomicLong size = new AtomicLong();
    private final AtomicLong nextId = new AtomicLong();
    /** The least duration logged, Long.MAX_VALUE while logging is off (a negative threshold or max-len 0). */
    private volatile long slowerThan;
    private volatile long maxLength;

    public SlowLog(long slowerThan, long maxLength) {
        configure(slowerThan, maxLength);
    }

    /** New settings: {@code slowlog-log-slower-than} (negative: off) and {@code slowlog-max-len}. */
    public void configure(long slowerThan, long maxLength) {
        this.maxLength = maxLength;
        this.slowerThan = slowerThan < 0 || maxLength == 0 ? Long.MAX_VALUE : slowerThan;
    }

    /** Whether a command that ran this long is logged: the one comparison every command pays. */
    public boolean isSlow(long micros) {
        return micros >= slowerThan;
    }

    /**
     * Logs a command that {@link #isSlow} found slow. {@code redacted} says which arguments are
     * secrets (null: none), as Redis's redactClientCommandArgument marks them.
     */
    public void add(Arguments args, boolean[] redacted, long micros, String peer, String clientName) {
        entries.addFirst(new Entry(nextId.getAndIncrement(), System.currentTimeMillis() / 1000, micros,
            trimmed(args, redacted), peer, clientName));
        size.incrementAndGet();
        trim();
    }

    /** Entries the log keeps at most: {@code slowlog-max-len}. */
    public long maxLength() {
        return maxLength;
    }

    /**
     * Counts {@code count} entries that were logged and at once trimmed away: their ids are used, as
     * in Redis, where each of them was pushed and then removed.
     */
    public void skip(long count) {
        nextId.addAndGet(count);
    }

    private void trim() {
        long limit = maxLength;
        for (long current = size.get(); current > limit; current = size.get()) {
            if (size.compareAndSet(current, current - 1)) {
                entries.pollLast();
            }
        }
    }

    /** slowlogCreateEntry's argument list: 32 at most, the last saying how many more there were. */
    private static List<byte[]> trimmed(Arguments args, boolean[] redacted) {
        int count = Math.min(args.count(), MAX_ARGUMENTS);
        List<byte[]> kept = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            if (count != args.count() && i == count - 1) {
                kept.add(("... (" + (args.count() - count + 1) + " more arguments)").getBytes(StandardCharsets.US_ASCII));
            } else if (redacted != null && redacted[i]) {
                kept.add(REDACTED);
            } else {
                kept.add(trimmedArgument(args.array(), args.offset(i), args.length(i)));
            }
        }
        return kept;
    }

    private static byte[] trimmedArgument(byte[] array, int offset, int length) {
        if (length <= MAX_ARGUMENT_BYTES) {
            return Arrays.copyOfRange(array, offset, offset + length);
        }
        byte[] suffix = ("... (" + (length - MAX_ARGUMENT_BYTES) + " more bytes)").getBytes(StandardCharsets.US_ASCII);
        byte[] kept = Arrays.copyOf(Arrays.copyOfRange(array, offset, offset + MAX_ARGUMENT_BYTES),
            MAX_ARGUMENT_BYTES + suffix.length);
        System.arraycopy(suffix, 0, kept, MAX_ARGUMENT_BYTES, suffix.length);
        return kept;
    }

    /** The newest {@code count} entries, newest first; a negative count for all of them. */
    public List<Entry> newest(long count) {
        List<Entry> newest = new ArrayList<>();
        for (Entry entry : entries) {
            if (count >= 0 && newest.size() >= count) {
                break;
            }
            newest.add(entry);
        }
        return newest;
    }

    public long length() {
        return Math.max(0, size.get());
    }

    /** SLOWLOG RESET: empties the log; ids go on from where they were, as in Redis. */
    public void reset() {
        for (long current = size.get(); current > 0; current = size.get()) {
            if (size.compareAndSet(current, current - 1)) {
                entries.pollLast();
            }
        }
    }
}
