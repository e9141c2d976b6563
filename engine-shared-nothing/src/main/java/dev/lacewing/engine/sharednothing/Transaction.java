package dev.lacewing.engine.sharednothing;

import dev.lacewing.api.Invocation;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One command through the door for ordered work ({@link SharedNothingEngine#schedule}): a command
 * over several shards, or a one-shard command that found its keys claimed. It has a part on each
 * shard it involves; each part claims, on its shard's {@link TransactionQueue}, either some keys
 * (intents) or the whole shard, and holds them from the moment its shard grants them until the
 * whole transaction is done, so no other command sees it half done.
 *
 * <p>Thread rule: the fields are final but {@code granted} (entry {@code i} is shard
 * {@code shards[i]}'s thread's), {@code replies} (entry {@code i} written by shard
 * {@code shards[i]}'s thread before it counts down {@code outstanding}, read by the thread that
 * counts it to zero).
 */
final class Transaction {

    /** How a transaction's parts run. */
    enum Kind {
        /**
         * A command split over its keys' shards (MGET, MSET, DEL...): each part claims its keys and
         * runs as soon as its shard grants them, in parallel with the others; the last joins the
         * reply and the claims are released. A split in rounds (MSETNX; the gather form of RENAME,
         * SMOVE, LMOVE, the STORE forms: gather on each shard, run on the destination's, put back)
         * holds the claims throughout.
         */
        SPLIT,
        /**
         * A command that must run whole on one thread (KEYS, SCAN, FLUSHALL, SORT with BY/GET
         * patterns, a gathered command under notifications or tracking, a command whose blocked
         * clients may move elsewhere): each part claims its
         * shard whole; once every shard granted, the thread that granted last runs it, touching
         * the other shards' data while their own threads leave it alone.
         */
        WHOLE,
        /** A one-shard command that waited for keys claimed by earlier transactions; runs when granted. */
        LOCAL
    }

    final Kind kind;
    final Invocation invocation;
    final Invocation.Split split;
    /** The shards involved, ascending. */
    final int[] shards;
    /** Per involved shard, the key indexes its part runs over (SPLIT), or null. */
    final int[][] keys;
    /**
     * Per involved shard, the keys its part claims, as {@link TransactionQueue#intent} hashes; null
     * for a claim of the whole shard (WHOLE).
     */
    final long[][] intents;
    final boolean[] granted;
    /**
     * Per involved shard, this transaction's previous and next in that shard's queue's chains of
     * active and of waiting transactions ({@link TransactionQueue}): part {@code i}'s links start
     * at {@code i * LINKS_PER_PART}; its shard's thread's only.
     */
    final Transaction[] links;
    static final int ACTIVE_LINKS = 0;
    static final int WAITING_LINKS = 2;
    static final int LINKS_PER_PART = 4;
    final Object[] replies;
    /**
     * SPLIT: parts not yet run in this round; WHOLE: shards not yet granted. A field of its own
     * ({@link #OUTSTANDING}), not an {@code AtomicInteger}: one object fewer per transaction.
     */
    private volatile int outstanding;
    private static final VarHandle OUTSTANDING;

    static {
        try {
            OUTSTANDING = MethodHandles.lookup().findVarHandle(Transaction.class, "outstanding", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    Transaction(Kind kind, Invocation invocation, Invocation.Split split, int[] shards, int[][] keys,
                long[][] intents) {
        this.kind = kind;
        this.invocation = invocation;
        this.split = split;
        this.shards = shards;
        this.keys = keys;
        this.intents = intents;
        this.granted = new boolean[shards.length];
        this.links = new Transaction[shards.length * LINKS_PER_PART];
        this.replies = kind == Kind.SPLIT ? new Object[shards.length] : null;
        this.outstanding = shards.length;
    }

    /** Counts one part run or one shard granted; true for the last. */
    boolean countDown() {
        return (int) OUTSTANDING.getAndAdd(this, -1) == 1;
    }

    /** The parts the next round runs; set before they are handed to their shards. */
    void expect(int parts) {
        outstanding = parts;
    }

    /** The position of {@code shard} among {@link #shards}. */
    int part(int shard) {
        int part = partOrNone(shard);
        if (part < 0) {
            throw new IllegalArgumentException("shard " + shard + " is not part of this transaction");
        }
        return part;
    }

    /** The position of {@code shard} among {@link #shards}, or -1 when it is not involved. */
    int partOrNone(int shard) {
        for (int i = 0; i < shards.length; i++) {
            if (shards[i] == shard) {
                return i;
            }
        }
        return -1;
    }

    boolean claimsWhole() {
        return kind == Kind.WHOLE;
    }
}
