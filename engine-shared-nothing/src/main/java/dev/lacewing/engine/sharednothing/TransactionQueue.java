package dev.lacewing.engine.sharednothing;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.Invocation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One shard's queue of transactions and the key intents they hold, as Dragonfly's per-shard
 * transaction queue and lock table (VLL). Transactions arrive in the global order the engine
 * enqueues them in ({@link #arrive}, under its order lock), so every shard sees any two of them in
 * the same order. A part is granted once no earlier unreleased transaction on this shard claims
 * one of its keys, or the shard whole; a whole-shard claim is granted once nothing is before it.
 * Waits therefore only ever point from a later transaction to an earlier one: no deadlock.
 *
 * <p>Each claimed key keeps its claimants in arrival order, so a keyed part is grantable when it
 * heads the line of every key it claims. Only an arrival, or a release that makes a waiting part
 * the new head of a line, can make a keyed part grantable, so while no whole-shard claim is in the
 * queue a grant checks just those parts ({@link #candidates}): O(released keys), however many parts
 * wait behind a busy key. With a whole-shard claim in the queue, or one just released, it passes
 * over every waiting part in order.
 *
 * <p>Commands outside the queue (single-key commands inline or hopped here) run at once when no
 * unreleased transaction claims their keys ({@link #free}), ahead of transactions waiting on other
 * keys; otherwise they join the queue's tail as {@link Transaction.Kind#LOCAL} and wait.
 *
 * <p>An intent is a 64-bit hash of the key's bytes ({@link #intent}), not the key or its database:
 * two commands on equal key names in different databases, or on keys whose hashes collide, may
 * wait for each other, never the wrong way round. Hashing spares a copy of every key and a
 * byte-wise compare per lookup; a key claimed by one part only (nearly always) has no line of its
 * own, just that part.
 *
 * <p>A shard starts at most {@link #PARTS_PER_PASS} granted parts from its queued tasks in one
 * pass of its event loop: the loop runs every queued task before it reads its sockets again, so a
 * burst of other shards' parts (an MSET load's) would hold a GET that arrived meanwhile, and the
 * hop of a GET queued behind them, for the whole burst. Later grants wait in {@link #ready}, still
 * holding their claims, and start after the loop's next I/O ({@link #startAfterIo}), in grant
 * order: a delay, never a wait on another transaction, so no cycle appears. The count starts again
 * at each pass's end ({@link #endPass}). A take-in within the dispatch of the thread's own
 * connection ({@link #takeInDispatched}) is not held back: it is that connection's command running
 * where it was read, as an inline command does, and held back it would run after the other shards'
 * parts of its own transaction, which then end their round here rather than where the next round
 * runs.
 *
 * <p>Thread rule: the shard's thread only, but {@link #arrive}, which any thread calls.
 */
final class TransactionQueue {

    /**
     * Granted parts a shard starts before it returns to its I/O. Without a bound, a loop of a
     * two-shard server beside 20 MSET10 connections ran 8-31 parts in a quarter of its passes.
     */
    static final int PARTS_PER_PASS = 8;

    private final int shard;
    private final ConcurrentLinkedQueue<Transaction> arrivals = new ConcurrentLinkedQueue<>();
    /** Unreleased transactions, in order: granted ones and those waiting. */
    private final Chain active = new Chain(Transaction.ACTIVE_LINKS);
    /** The transactions of {@link #active} not granted yet, in order. */
    private final Chain waiting = new Chain(Transaction.WAITING_LINKS);
    /**
     * Waiting parts that may have become grantable since the last pass: arrivals, and the parts a
     * release left heading a line. Some may be granted or gone already; the pass skips those.
     */
    private final ArrayList<Transaction> candidates = new ArrayList<>();
    /** A whole-shard claim was released since the last pass: everything waiting is checked. */
    private boolean wholeReleased;
    /**
     * Per claimed key, the parts of {@link #active} that claim it, in order (a part once per time it
     * names the key): the {@link Transaction} itself while it is the only one, else an
     * {@link ArrayDeque} of them.
     */
    private final IntentTable claimed = new IntentTable();
    private int wholeClaims;
    /** Called on this thread for each part granted here. */
    private final BiConsumer<Transaction, Integer> onGranted;
    private boolean granting;
    private boolean grantAgain;
    /** Granted parts not started yet, in grant order: those of the running pass, and those left for after the I/O. */
    private final ArrayDeque<Transaction> ready = new ArrayDeque<>();
    /** Parts started in this pass, {@link #takeInDispatched}'s aside; at {@link #PARTS_PER_PASS} the rest wait for the I/O. */
    private int startedThisPass;
    private boolean passEndQueued;
    private boolean startAfterIoQueued;
    /** Runs a task on this shard's thread after the I/O it has ready ({@link dev.lacewing.api.Workers#executeAfterIo}). */
    private final Consumer<Runnable> afterIo;
    /** Runs a task on this shard's thread at its pass's end ({@link dev.lacewing.api.Workers#executeAtPassEnd}). */
    private final Consumer<Runnable> atPassEnd;
    private final Runnable startAfterIo = this::startAfterIo;
    private final Runnable endPass = this::endPass;
    /** Set while a take-in within a dispatch starts what is ready, past the pass's budget. */
    private boolean dispatched;
    /** {@link #takeIn}, posted to the shard after an enqueue from another thread. */
    final Runnable drain = this::takeIn;

    TransactionQueue(int shard, BiConsumer<Transaction, Integer> onGranted, Consumer<Runnable> afterIo,
                     Consumer<Runnable> atPassEnd) {
        this.shard = shard;
        this.onGranted = onGranted;
        this.afterIo = afterIo;
        this.atPassEnd = atPassEnd;
    }

    /** Enqueues a transaction's part; any thread, in the engine's global order. */
    void arrive(Transaction transaction) {
        arrivals.add(transaction);
    }

    /**
     * Whether a command over the keys of {@code invocation} (all on this shard) may run now: no
     * unreleased transaction claims one of them, nor the shard whole. One field read while the
     * queue is empty, as it nearly always is.
     */
    boolean free(Invocation invocation) {
        if (active.isEmpty()) {
            return true;
        }
        if (wholeClaims > 0) {
            return false;
        }
        Arguments args = invocation.arguments();
        for (int i = 0; i < invocation.keyCount(); i++) {
            int argument = invocation.keyArgument(i);
            if (claimed.containsKey(intent(args.array(), args.offset(argument), args.length(argument)))) {
                return false;
            }
        }
        return true;
    }

    /** Whether a transaction claims the whole shard: its data may be in another thread's hands. */
    boolean claimedWhole() {
        return wholeClaims > 0;
    }

    /** Adds a one-shard command that has to wait at the tail, after every transaction enqueued so far. */
    void enqueueLocal(Transaction transaction) {
        takeArrivals();
        add(transaction);
        grant();
    }

    /** Ends a transaction's claims here: it is done on every shard, and heads the line of each key it claims. */
    void release(Transaction transaction) {
        active.remove(transaction);
        if (transaction.claimsWhole()) {
            wholeClaims--;
            wholeReleased = true;
        } else {
            for (long key : transaction.intents[transaction.part(shard)]) {
                unclaim(key, transaction);
            }
        }
        grant();
    }

    /**
     * Takes in every transaction that arrived, in order, and grants what it can; on this shard's
     * thread, from the posted {@link #drain} or from the engine's door when the transaction was
     * enqueued on this very thread. Inside a grant pass (the door called from a granted part's
     * work) the grant is left to that pass's loop, which goes round again.
     */
    void takeIn() {
        if (takeArrivals()) {
            grant();
        }
    }

    /**
     * {@link #takeIn} from the dispatch of a connection of this thread: what it makes ready starts
     * now, whatever this pass started already, and does not count against the pass's budget. Inside
     * a grant pass it is left to that pass's loop, budget and all.
     */
    void takeInDispatched() {
        if (granting) {
            takeIn();
            return;
        }
        dispatched = true;
        try {
            takeIn();
        } finally {
            dispatched = false;
        }
    }

    private boolean takeArrivals() {
        boolean any = false;
        for (Transaction transaction = arrivals.poll(); transaction != null; transaction = arrivals.poll()) {
            add(transaction);
            any = true;
        }
        return any;
    }

    private void add(Transaction transaction) {
        active.add(transaction);
        waiting.add(transaction);
        candidates.add(transaction);
        if (transaction.claimsWhole()) {
            wholeClaims++;
        } else {
            for (long key : transaction.intents[transaction.part(shard)]) {
                claim(key, transaction);
            }
        }
    }

    /**
     * Grants, in order, every waiting part that nothing earlier conflicts with, then starts the
     * granted parts, up to {@link #PARTS_PER_PASS} in this pass. A grant's work may release
     * transactions here and so ask again; that happens in this loop, not in a nested one.
     */
    private void grant() {
        if (granting) {
            grantAgain = true;
            return;
        }
        granting = true;
        try {
            do {
                grantAgain = false;
                pass();
                startReady();
            } while (grantAgain);
        } finally {
            granting = false;
        }
    }

    /**
     * Starts the {@link #ready} parts in order while the pass's budget lasts; past it, leaves the
     * rest to {@link #startAfterIo}. The first part a pass starts asks for {@link #endPass}, one
     * task per pass that starts any, which gives the next pass its budget.
     */
    private void startReady() {
        for (Transaction transaction = ready.peekFirst(); transaction != null; transaction = ready.peekFirst()) {
            if (!dispatched) {
                if (startedThisPass == PARTS_PER_PASS) {
                    if (!startAfterIoQueued) {
                        startAfterIoQueued = true;
                        afterIo.accept(startAfterIo);
                    }
                    return;
                }
                if (startedThisPass++ == 0 && !passEndQueued) {
                    passEndQueued = true;
                    atPassEnd.accept(endPass);
                }
            }
            ready.pollFirst();
            onGranted.accept(transaction, shard);
        }
    }

    /** The loop's pass over its tasks ended: the next pass starts with a whole budget. */
    private void endPass() {
        passEndQueued = false;
        startedThisPass = 0;
    }

    /** After the loop's I/O: the parts left waiting for it start, within this pass's budget. */
    private void startAfterIo() {
        startAfterIoQueued = false;
        grant();
    }

    /**
     * Grants what may have become grantable: the {@link #candidates} heading every line of their
     * keys, or, while a whole-shard claim is in the queue or was just released, a pass over every
     * waiting part ({@link #passAll}).
     */
    private void pass() {
        if (wholeClaims > 0 || wholeReleased) {
            passAll();
        } else {
            for (int i = 0; i < candidates.size(); i++) {
                Transaction transaction = candidates.get(i);
                int part = transaction.part(shard);
                if (!transaction.granted[part] && heads(transaction, transaction.intents[part])) {
                    waiting.remove(transaction);
                    grant(transaction, part);
                }
            }
        }
        candidates.clear();
        wholeReleased = false;
    }

    /**
     * One pass over the waiting parts, in order: a keyed part heading the line of each of its keys
     * is granted; a whole-shard claim is granted when it is the first unreleased transaction, and
     * nothing after it is (nor anything at all while a granted one holds the shard).
     */
    private void passAll() {
        if (waiting.isEmpty()) {
            return;
        }
        Transaction first = active.first();
        if (first.claimsWhole() && first.granted[first.part(shard)]) {
            return;
        }
        for (Transaction transaction = waiting.first(), next; transaction != null; transaction = next) {
            next = waiting.next(transaction);
            int part = transaction.part(shard);
            if (transaction.claimsWhole()) {
                if (transaction == first) {
                    waiting.remove(transaction);
                    grant(transaction, part);
                }
                return;
            }
            if (heads(transaction, transaction.intents[part])) {
                waiting.remove(transaction);
                grant(transaction, part);
            }
        }
    }

    private void grant(Transaction transaction, int part) {
        transaction.granted[part] = true;
        ready.addLast(transaction);
    }

    private boolean heads(Transaction transaction, long[] keys) {
        for (long key : keys) {
            Object line = claimed.get(key);
            Object head = line instanceof ArrayDeque<?> several ? several.peekFirst() : line;
            if (head != transaction) {
                return false;
            }
        }
        return true;
    }

    /** Puts {@code transaction} at the end of {@code key}'s line. */
    @SuppressWarnings("unchecked")
    private void claim(long key, Transaction transaction) {
        Object line = claimed.putIfAbsent(key, transaction);
        if (line instanceof ArrayDeque<?> several) {
            ((ArrayDeque<Transaction>) several).addLast(transaction);
        } else if (line != null) {
            ArrayDeque<Transaction> several = new ArrayDeque<>(4);
            several.addLast((Transaction) line);
            several.addLast(transaction);
            claimed.replace(key, several);
        }
    }

    /**
     * Takes the first occurrence of {@code transaction} out of {@code key}'s line; the part then
     * heading it is a {@link #candidates candidate}.
     */
    @SuppressWarnings("unchecked")
    private void unclaim(long key, Transaction transaction) {
        Object line = claimed.get(key);
        if (line == transaction) {
            claimed.remove(key);
            return;
        }
        ArrayDeque<Transaction> several = (ArrayDeque<Transaction>) line;
        several.removeFirstOccurrence(transaction);
        candidates.add(several.peekFirst());
        if (several.size() == 1) {
            claimed.replace(key, several.peekFirst());
        }
    }

    /**
     * Transactions of this shard in arrival order, linked through their own
     * {@link Transaction#links} (at {@code slot} of this shard's part): adding and removing
     * allocate nothing, where a {@code LinkedHashSet} made a node per transaction per shard
     * and per set, and hashed each by identity. A transaction is in a chain at most once.
     */
    private final class Chain {
        private final int slot;
        private Transaction head;
        private Transaction tail;

        Chain(int slot) {
            this.slot = slot;
        }

        boolean isEmpty() {
            return head == null;
        }

        Transaction first() {
            return head;
        }

        Transaction next(Transaction transaction) {
            return transaction.links[at(transaction) + 1];
        }

        void add(Transaction transaction) {
            int at = at(transaction);
            transaction.links[at] = tail;
            transaction.links[at + 1] = null;
            if (tail == null) {
                head = transaction;
            } else {
                tail.links[at(tail) + 1] = transaction;
            }
            tail = transaction;
        }

        /** Takes {@code transaction} out; nothing when it is not in the chain. */
        void remove(Transaction transaction) {
            int at = at(transaction);
            Transaction previous = transaction.links[at];
            Transaction next = transaction.links[at + 1];
            if (previous == null && head != transaction) {
                return;
            }
            if (previous == null) {
                head = next;
            } else {
                previous.links[at(previous) + 1] = next;
            }
            if (next == null) {
                tail = previous;
            } else {
                next.links[at(next)] = previous;
            }
            transaction.links[at] = null;
            transaction.links[at + 1] = null;
        }

        /** Where this chain's previous and next links of {@code transaction} are. */
        private int at(Transaction transaction) {
            return transaction.part(shard) * Transaction.LINKS_PER_PART + slot;
        }
    }

    /**
     * The intent of a key: FNV-1a over its bytes, 64 bits, then murmur3's 64-bit finalizer. Two
     * keys share one with a chance of about 2^-64 per pair, and then only wait for each other.
     */
    static long intent(byte[] key, int offset, int length) {
        long h = 0xcbf29ce484222325L ^ length;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            h = (h ^ key[i]) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb53a2ed5cc51L;
        h ^= h >>> 33;
        return h;
    }
}
